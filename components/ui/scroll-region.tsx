/**
 * A box that scrolls sideways when its content is wider (tables on tablets). It is always a
 * named, focusable region, so keyboard users can scroll it. It used to become one only once a
 * ResizeObserver had seen it overflow, but that left a window (a table widening after new rows,
 * before React re-rendered) where a scrollable box had no keyboard access; one tab stop per
 * table is the price of never having that gap.
 */
import type { ReactNode } from "react";

export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    // `relative`: visually hidden labels in far cells (position: absolute) are clipped with the
    // table instead of escaping the scroll box and widening the whole page.
    <div className={`relative overflow-x-auto rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${className ?? ""}`} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
