import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

const TONES = {
  gray: "bg-slate-100 text-slate-800 ring-slate-300",
  green: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  yellow: "bg-amber-50 text-amber-900 ring-amber-300",
  red: "bg-red-50 text-red-800 ring-red-300",
  blue: "bg-sky-50 text-sky-800 ring-sky-300",
  purple: "bg-violet-50 text-violet-800 ring-violet-300",
} as const;
export type Tone = keyof typeof TONES;

export function Badge({ tone = "gray", children, className }: { tone?: Tone; children: ReactNode; className?: string }) {
  return <span className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", TONES[tone], className)}>{children}</span>;
}

const STATUS_TONES: Record<string, Tone> = {
  completed: "green",
  succeeded: "green",
  resolved: "green",
  won: "green",
  settled: "green",
  enabled: "green",
  credited: "green",
  active: "green",
  pending: "yellow",
  open: "yellow",
  processing: "yellow",
  awaiting_method: "yellow",
  failed: "red",
  lost: "red",
  chargeback: "red",
  rejected: "red",
  disabled: "gray",
  expired: "gray",
  refunded: "purple",
  partially_refunded: "purple",
  disputed: "red",
};

/** A status word with its colour; the word itself carries the meaning (not colour alone). */
export function StatusBadge({ status, label }: { status: string; /** Words for the status where the page knows better than the API's value. */ label?: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "gray"}>{label ?? status.replace(/_/g, " ")}</Badge>;
}
