// A payment's timeline on its detail page: one line per thing that happened, from its events.
// The API emits some happenings as two events (`payment.completed` and its alias
// `payment.captured`; `chargeback.created` and `claim.opened` of the same claim; a refund's
// `payment.refunded` and its claim's `claim.resolved`, in one transaction): a merchant reads one
// line each, with the amount it moved, and the API's event names stay in the line's tooltip.
// Pure (no database), so client components may import its types.

export type Amount = { amount: number; currency: string };

export type Happening =
  | { what: "paid"; amount: Amount; /** A late completion: the status it had been given first. */ after?: string }
  | { what: "failed" }
  | { what: "expired" }
  /** `of` is the payment's amount; `full` once everything is refunded. */
  | { what: "refunded"; amount: Amount; of?: Amount; full: boolean }
  | { what: "refund_started" | "refund_refused" | "chargeback_opened" | "chargeback_won" | "chargeback_lost" | "med_opened" | "med_released" | "med_returned"; amount: Amount }
  | { what: "other"; type: string; kind: string | null };

export type TimelineEntry = { id: string; at: string; types: string[]; happened: Happening };

export type TimelineEvent = { id: string; type: string; createdAt: Date | string; payload: unknown };

type Obj = { id?: string; status?: string; kind?: string; amount?: number; currency?: string; amountLocal?: number; currencyLocal?: string; refundedAmountLocal?: number; lateCompletion?: boolean };

const dataOf = (payload: unknown) => ((payload as { data?: { object?: Obj; previousStatus?: string | null } } | null)?.data ?? {}) as { object?: Obj; previousStatus?: string | null };
const iso = (d: Date | string) => (typeof d === "string" ? d : d.toISOString());
// Amounts arrive as major-unit numbers; a difference of two is rounded back to what a currency can hold.
const minus = (a: number, b: number) => Math.round((a - b) * 10_000) / 10_000;
const claimAmount = (o: Obj): Amount => ({ amount: o.amount ?? 0, currency: o.currency ?? "" });

export function paymentTimeline(events: readonly TimelineEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const byKey = new Map<string, TimelineEntry>();
  /** Refund lines not yet joined by their claim's `claim.resolved`. */
  const refundLines: Array<{ entry: TimelineEntry; amount: number; at: number }> = [];
  const unmatchedResolved: Array<{ e: TimelineEvent; o: Obj }> = [];
  let refundedSoFar = 0;

  const add = (e: TimelineEvent, happened: Happening, key?: string) => {
    const entry: TimelineEntry = { id: e.id, at: iso(e.createdAt), types: [e.type], happened };
    entries.push(entry);
    if (key) byKey.set(key, entry);
    return entry;
  };
  const join = (key: string, e: TimelineEvent) => {
    const entry = byKey.get(key);
    if (entry && !entry.types.includes(e.type)) entry.types.push(e.type);
    return Boolean(entry);
  };

  for (const e of events) {
    const { object: o = {}, previousStatus } = dataOf(e.payload);
    const chargeback = o.kind === "chargeback";
    const med = o.kind === "pix_med";
    switch (e.type) {
      case "payment.completed":
      case "payment.captured": {
        if (join("paid", e)) break;
        const late = o.lateCompletion && previousStatus ? previousStatus : undefined;
        add(e, { what: "paid", amount: { amount: o.amountLocal ?? 0, currency: o.currencyLocal ?? "" }, ...(late ? { after: late } : {}) }, "paid");
        break;
      }
      case "payment.failed":
        add(e, { what: o.status === "expired" ? "expired" : "failed" });
        break;
      case "payment.refunded": {
        const total = o.refundedAmountLocal ?? 0;
        const amount = minus(total, refundedSoFar);
        refundedSoFar = total;
        const of = { amount: o.amountLocal ?? 0, currency: o.currencyLocal ?? "" };
        const entry = add(e, { what: "refunded", amount: { amount, currency: of.currency }, of, full: o.status === "refunded" || total >= of.amount });
        refundLines.push({ entry, amount, at: Date.parse(iso(e.createdAt)) });
        break;
      }
      case "chargeback.created":
      case "claim.opened": {
        const key = `opened:${o.id}`;
        if (join(key, e)) break;
        add(e, { what: med ? "med_opened" : chargeback || e.type === "chargeback.created" ? "chargeback_opened" : "refund_started", amount: claimAmount(o) }, key);
        break;
      }
      case "claim.resolved":
        if (chargeback) add(e, { what: o.status === "won" ? "chargeback_won" : "chargeback_lost", amount: claimAmount(o) });
        else if (med && o.status === "won") add(e, { what: "med_released", amount: claimAmount(o) });
        // A MED decided for the payer: its payment.refunded line (committed with it) becomes the MED's.
        else if (med) unmatchedResolved.push({ e, o });
        else if (o.status === "rejected") add(e, { what: "refund_refused", amount: claimAmount(o) });
        // A refund paid back: its payment.refunded line (committed with it) says so already.
        else unmatchedResolved.push({ e, o });
        break;
      default:
        add(e, { what: "other", type: e.type, kind: o.kind ?? null });
    }
  }

  for (const { e, o } of unmatchedResolved) {
    const at = Date.parse(iso(e.createdAt));
    const candidates = refundLines.filter((r) => Math.abs(r.amount - (o.amount ?? 0)) < 1e-6).sort((a, b) => Math.abs(a.at - at) - Math.abs(b.at - at));
    const line = candidates[0];
    if (line) {
      line.entry.types.push(e.type);
      if (o.kind === "pix_med") line.entry.happened = { what: "med_returned", amount: claimAmount(o) };
      refundLines.splice(refundLines.indexOf(line), 1);
    } else {
      const entry: TimelineEntry = { id: e.id, at: iso(e.createdAt), types: [e.type], happened: o.kind === "pix_med" ? { what: "med_returned", amount: claimAmount(o) } : { what: "refunded", amount: claimAmount(o), full: false } };
      const later = entries.findIndex((x) => x.at > entry.at);
      entries.splice(later === -1 ? entries.length : later, 0, entry);
    }
  }
  return entries;
}
