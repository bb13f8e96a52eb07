// What the dashboard calls a payment's state. The API keeps the contract's statuses (a partly
// refunded payment stays `completed`, a disputed one too until the chargeback is decided); a
// merchant looking at the page needs to see both facts, as Stripe shows "Partially refunded"
// and "Disputed" beside "Succeeded".
export type DisplayStatus = "disputed" | "partially_refunded" | string;

type ClaimLike = { kind: string; status: string; amount?: number };

/** An open chargeback: one the issuer has not decided yet (the evidence window may be running). */
export function hasOpenChargeback(claims: readonly ClaimLike[]): boolean {
  return claims.some((c) => c.kind === "chargeback" && (c.status === "open" || c.status === "pending"));
}

export function paymentDisplayStatus(p: { status: string; refundedAmountLocal?: number | null }, claims: readonly ClaimLike[] = []): DisplayStatus {
  if (p.status !== "completed") return p.status;
  if (hasOpenChargeback(claims)) return "disputed";
  if ((p.refundedAmountLocal ?? 0) > 0) return "partially_refunded";
  return p.status;
}
