// A payment status in words and colour (the colour only repeats the words).
const TONE: Record<string, string> = {
  completed: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  paid: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  cancelled: "bg-slate-200 text-slate-900 ring-slate-300",
  pending: "bg-amber-100 text-amber-950 ring-amber-300",
  failed: "bg-red-100 text-red-900 ring-red-300",
  expired: "bg-slate-200 text-slate-900 ring-slate-300",
  refunded: "bg-slate-200 text-slate-900 ring-slate-300",
  chargeback: "bg-red-100 text-red-900 ring-red-300",
};

export function StatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span data-testid="payment-status" data-status={status} className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ring-1 ${TONE[status] ?? TONE.pending}`}>
      {label}
    </span>
  );
}
