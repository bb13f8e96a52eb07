"use client";
// The dashboard's list table: columns, an empty state, an optional footer (pagination), and
// rows that open their record. The record's link stays a real <a> in its column (keyboard and
// screen readers use it); a click anywhere else on the row follows the same link, except on
// the row's own controls or while text is being selected.
import type { ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";

export type Column<R> = {
  header: ReactNode;
  cell: (row: R) => ReactNode;
  align?: "left" | "right";
  /** Long text (names, addresses) wraps instead of widening the table (over Td's nowrap: cn only joins). */
  wrap?: boolean;
  className?: string;
  /** The column's name on its cells (`data-col`), for tests that check what stays in view. */
  name?: string;
  /** Shown from this breakpoint up; narrower, the page stacks what matters of it into another column. */
  from?: "lg" | "xl";
};

// Literal class names (Tailwind only generates what it finds written out).
const FROM = { lg: "hidden lg:table-cell", xl: "hidden xl:table-cell" } as const;

type Props<R> = {
  caption: string;
  rows: readonly R[];
  columns: ReadonlyArray<Column<R> | false | null | undefined>;
  rowKey: (row: R) => string;
  rowHref?: (row: R) => string;
  rowProps?: (row: R) => Record<string, string | undefined>;
  empty: { title: string; body?: ReactNode };
  footer?: ReactNode;
};

const INTERACTIVE = "a, button, input, select, textarea, label, summary, [role=button]";

export function ResourceTable<R>({ caption, rows, columns, rowKey, rowHref, rowProps, empty, footer }: Props<R>) {
  const router = useRouter();
  const cols = columns.filter(Boolean) as Column<R>[];
  if (rows.length === 0) return <EmptyState title={empty.title}>{empty.body}</EmptyState>;
  return (
    <>
      <Table caption={caption}>
        <thead>
          <tr>
            {cols.map((c, i) => (
              <Th key={i} className={cn(c.align === "right" && "text-right", c.from && FROM[c.from])}>
                {c.header}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const href = rowHref?.(r);
            return (
              <tr
                key={rowKey(r)}
                {...rowProps?.(r)}
                data-href={href}
                className={cn(href && "cursor-pointer hover:bg-slate-50")}
                onClick={
                  href
                    ? (e) => {
                        if ((e.target as Element).closest(INTERACTIVE)) return;
                        if (window.getSelection()?.toString()) return;
                        if (e.metaKey || e.ctrlKey) window.open(href, "_blank", "noopener");
                        else router.push(href);
                      }
                    : undefined
                }
              >
                {cols.map((c, i) => (
                  <Td key={i} data-col={c.name} className={cn(c.align === "right" && "text-right", c.wrap && "whitespace-normal! break-words", c.from && FROM[c.from], c.className)}>
                    {c.cell(r)}
                  </Td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </Table>
      {footer}
    </>
  );
}

/** A record's id as the link of its row: monospace, never wrapped or clipped. */
/** A record's link: its id, or `text` (words) with the id as the tooltip. */
export function IdLink({ href, id, label, text }: { href: string; id: string; label?: string; text?: string }) {
  return (
    <Link href={href} aria-label={label} title={text ? id : undefined} className={`whitespace-nowrap text-indigo-700 underline underline-offset-2 hover:text-indigo-900 ${text ? "text-sm font-medium" : "font-mono text-xs"}`}>
      {text ?? id}
    </Link>
  );
}
