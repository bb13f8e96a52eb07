"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * A box that scrolls sideways when its content is wider (tables on tablets). While it
 * overflows it is a named, focusable region, so keyboard users can scroll it too.
 */
export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, []);
  return (
    // `relative`: visually hidden labels in far cells (position: absolute) are clipped with the
    // table instead of escaping the scroll box and widening the whole page.
    <div ref={ref} className={`relative overflow-x-auto ${className ?? ""}`} {...(overflows ? { tabIndex: 0, role: "region", "aria-label": label } : {})}>
      {children}
    </div>
  );
}
