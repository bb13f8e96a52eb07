"use client";
// A table's scroll box that turns the table into a card per row when the table is wider than
// its box (issue 41: every table whole at 1366 and 820 px, with whatever lengths the data
// brings). It measures rather than guesses a breakpoint: the same list fits on a laptop with
// short names and stacks with a long e-mail. Each cell is labelled with its column's header
// (`data-label`, shown by app/globals.css as the line's caption, silent to screen readers, which
// keep the table's own headers). Without JavaScript the table scrolls sideways as before.
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** Copies each column's header text onto its body cells (`data-label`), for the stacked layout. */
function labelCells(table: HTMLTableElement) {
  const heads = [...(table.tHead?.rows[0]?.cells ?? [])].map((th) => (th.textContent ?? "").trim());
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let col = 0;
      for (const cell of row.cells) {
        const label = heads[col] ?? "";
        if (cell.getAttribute("data-label") !== label) cell.setAttribute("data-label", label);
        col += cell.colSpan || 1;
      }
    }
  }
}

/** Stacks the table when, laid out as a table, it is wider than its box. */
function fit(region: HTMLElement) {
  const table = region.querySelector("table");
  if (!table) return;
  // Measured as a table (in the same task: no paint between the two states).
  region.removeAttribute("data-stacked");
  const wide = table.getBoundingClientRect().width > region.clientWidth + 1;
  if (wide) region.setAttribute("data-stacked", "");
}

export function StackingRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const box = ref.current?.firstElementChild as HTMLElement | null;
    if (!box) return;
    const table = box.querySelector("table");
    if (table) labelCells(table);
    fit(box);
    let width = box.clientWidth;
    let frame = 0;
    // A new width: decided in the next frame (deciding inside the observer would resize what it
    // observes in its own callback, which the browser reports as a loop).
    const resized = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fit(box));
    });
    resized.observe(box);
    // New rows or longer values (live data): label and decide again, before the next paint.
    const changed = new MutationObserver(() => {
      const t = box.querySelector("table");
      if (t) labelCells(t);
      fit(box);
    });
    changed.observe(box, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  return (
    <div ref={ref} className="contents">
      <ScrollRegion label={label} className={className}>
        {children}
      </ScrollRegion>
    </div>
  );
}
