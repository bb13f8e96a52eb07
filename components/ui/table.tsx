import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn";
import { StackingRegion } from "@/components/ui/stacking-region";

/**
 * A table that never hides a column behind a sideways scroll: when it is wider than its box
 * (a narrow screen, a long e-mail) it becomes a card per row, each cell a line captioned with
 * its column's header (`StackingRegion`; the styles are in app/globals.css). Lists still choose
 * what shows at each width (`from`: the record's link, amount, status and date first), so at
 * 1366 and 820 px most stay tables. Without JavaScript it scrolls sideways. Cells are a little
 * tighter below lg.
 */
export function Table({ caption, children, className }: { caption: string; children: ReactNode; className?: string }) {
  return (
    <StackingRegion label={caption} className={className}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </StackingRegion>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn("whitespace-nowrap px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 lg:px-3", className)} {...props} />;
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("whitespace-nowrap px-2 py-2 text-slate-800 lg:px-3", className)} {...props} />;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-slate-300 px-6 py-10 text-center">
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded bg-slate-200", className)} />;
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-6 text-sm text-slate-600">
      <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" />
      {label}
    </p>
  );
}
