import type { HTMLAttributes, ReactNode } from "react";
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

/** `tech`: the technical name behind the words (the API's status), as a tooltip, like `Term`. */
export function Badge({ tone = "gray", children, className, tech, ...rest }: { tone?: Tone; children: ReactNode; className?: string; tech?: string } & Omit<HTMLAttributes<HTMLSpanElement>, "title" | "className" | "children">) {
  return (
    <span {...rest} title={tech} data-tech={tech} className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", tech && "cursor-help", TONES[tone], className)}>
      {children}
    </span>
  );
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
  delivered: "green",
  accepted: "green",
  approved: "green",
  paid: "green",
  declined: "red",
  unavailable: "gray",
  suspended: "red",
  closed: "yellow",
  awaiting_funds: "yellow",
  provisioning: "yellow",
  cancelled: "gray",
  pending_authorization: "yellow",
  scheduled: "gray",
  sending: "yellow",
  sent: "yellow",
  retrying: "yellow",
  missed: "red",
};

/** The colour of a status (any resource's API word); the words beside it carry the meaning, never colour alone. */
export const statusTone = (status: string): Tone => STATUS_TONES[status] ?? "gray";
