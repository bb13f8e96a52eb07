"use client";
// A record's id, for support and the API, out of the way of what a person reads: a small
// disclosure ("Id") that opens onto the id and a Copy id button. Titles, breadcrumbs, labels and
// sentences name the thing in words; the id lives here. It wraps anywhere, even in a nowrap cell.
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/components/ui/cn";
import { useTimes } from "@/components/ui/time-zone";
import { uiWords } from "@/components/ui/ui-words";

export function IdDetail({ id, label, className }: { id: string; /** The summary's words, e.g. "Event id". */ label?: string; className?: string }) {
  const w = uiWords(useTimes().locale);
  return (
    <details data-testid="id-detail" data-id={id} className={cn("group text-xs text-slate-600", className)}>
      <summary className="w-fit cursor-pointer rounded-sm underline decoration-dotted underline-offset-4 hover:text-slate-900">{label ?? w.id}</summary>
      <span className="mt-1 flex flex-wrap items-center gap-2">
        <code className="whitespace-normal break-all font-mono text-slate-900">{id}</code>
        <CopyButton value={id} label={w.copyId} />
      </span>
    </details>
  );
}
