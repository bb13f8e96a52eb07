// Claim transitions (API reference 3.4 and decisions.md): refunds in full, chargebacks opened (their
// end, with a MED's: resolve-dispute.ts), and the freezes they share. Each is an operation of the money kernel
// (lib/ledger/transition.ts) on the payment's row (pay-in transitions: lib/payments/transitions.ts):
// the claim, then its payment, then the merchant's ledger, the order every money move takes.
import type { Tx } from "@/lib/platform/db";
import { randomBase62 } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import type { EventType } from "@/lib/platform/outbox/emit";
import { mulDivHalfUp, toMajor } from "@/lib/money/amount";
import { bucketTotals } from "@/lib/ledger/post";
import { freeze, netOf, refundImmediate, type FreezeSplit } from "@/lib/ledger/recipes";
import { lockRow, transition, type Emit } from "@/lib/ledger/transition";
import { payment, paymentEvents, paymentOp, type InTransaction, type TransitionResult } from "@/lib/payments/transitions";
import { presentClaim } from "@/lib/claims/present";
import type { Transaction, Claim } from "@/lib/generated/prisma/client";

export const CHARGEBACK_FEE_USD_MINOR = 1500n;

export function newClaimId(): string {
  return `CLM-${randomBase62(16).toUpperCase()}`;
}

export async function lockClaim(tx: Tx, id: string): Promise<Claim | null> {
  return lockRow(tx, "claims", id, () => tx.claim.findUnique({ where: { id } }));
}

const claimEvents = (c: Claim, types: EventType[]): Emit[] => types.map((type) => ({ type, object: presentClaim(c) }));

/**
 * Where `usd` to freeze comes from: first what of this transaction's net is still pending (not
 * yet settled), then `available`. Records the pending part on the transaction (settlement then
 * moves only the rest). Without allowNegative, an available balance too small is 422
 * balance_insufficient. Call under the merchant's ledger lock.
 */
export async function freezeFunds(tx: Tx, t: Transaction, usd: bigint, opts: { allowNegative: boolean }): Promise<FreezeSplit> {
  const unsettledNet = t.settlementStatus === "pending" && t.status !== "pending" ? netOf(t) - t.pendingDebited : 0n;
  const fromPending = unsettledNet > 0n ? (usd < unsettledNet ? usd : unsettledNet) : 0n;
  const fromAvailable = usd - fromPending;
  if (!opts.allowNegative && fromAvailable > 0n) {
    const totals = await bucketTotals(tx, t.merchantId, t.environment);
    if (totals.available < fromAvailable) {
      throw new AppError("balance_insufficient", "The balance cannot cover this refund.", {
        details: { availableUsd: toMajor(totals.available, "USD"), shortfallUsd: toMajor(fromAvailable - totals.available, "USD") },
      });
    }
  }
  if (fromPending > 0n) await tx.transaction.update({ where: { id: t.id }, data: { pendingDebited: { increment: fromPending } } });
  return { fromPending, fromAvailable };
}

/**
 * A released freeze (refund rejected, chargeback won): how much goes back to `pending`. The part
 * that came from `pending` returns there while the payment is still unsettled (and settlement
 * will move it again); once settled, it goes to `available` as settlement would have.
 */
export async function releaseToPending(tx: Tx, t: Transaction, c: Claim): Promise<bigint> {
  if (c.frozenFromPending <= 0n || t.settlementStatus !== "pending") return 0n;
  const back = c.frozenFromPending < t.pendingDebited ? c.frozenFromPending : t.pendingDebited;
  if (back > 0n) await tx.transaction.update({ where: { id: t.id }, data: { pendingDebited: { decrement: back } } });
  return back;
}

/** USD share of a local refund; the last refund takes exactly what is left, so shares sum to the headline. */
export async function refundUsdShare(tx: Tx, t: Transaction, local: bigint): Promise<bigint> {
  // Every claim that took (or is taking) money from this payment: refunds pending or done, and
  // chargebacks open or lost.
  const open = await tx.claim.findMany({ where: { transactionId: t.id, status: { in: ["pending", "resolved", "open", "lost"] } }, select: { amountLocal: true, amountUsd: true } });
  const localSoFar = open.reduce((s, c) => s + c.amountLocal, 0n);
  const usdSoFar = open.reduce((s, c) => s + c.amountUsd, 0n);
  return localSoFar + local === t.amountLocal ? t.amountUsd - usdSoFar : mulDivHalfUp(t.amountUsd, local, t.amountLocal);
}

/**
 * The part of a shop-paid installment plan's financing fee (USD) a refund of `usd` gives back:
 * in proportion, the last refund exactly what is left, so the shares sum to the fee.
 */
export async function financingShare(tx: Tx, t: Transaction, local: bigint): Promise<bigint> {
  if (t.feeFinancing <= 0n) return 0n;
  const done = await tx.claim.findMany({ where: { transactionId: t.id, kind: "user_dispute", status: { in: ["pending", "resolved"] } }, select: { amountLocal: true, financingReversed: true } });
  const localSoFar = done.reduce((s, c) => s + c.amountLocal, 0n);
  const soFar = done.reduce((s, c) => s + c.financingReversed, 0n);
  return localSoFar + local === t.amountLocal ? t.feeFinancing - soFar : mulDivHalfUp(t.feeFinancing, local, t.amountLocal);
}

/** Sandbox `refunded`: completed -> refunded at once, for everything not already refunded. */
/** `reason`: who refunded it (a sandbox simulation, or the provider's own report of a refund). */
export async function refundInFull(id: string, opts: InTransaction & { reason?: "sandbox_simulation" | "provider_refund" } = {}): Promise<TransitionResult> {
  return payment(paymentOp(id, "refundInFull", ["completed"], opts, async (tx, t) => {
    const pendingClaims = await tx.claim.count({ where: { transactionId: id, status: { in: ["pending", "open"] } } });
    if (pendingClaims > 0) throw new AppError("invalid_request", "This payment has an open claim; wait for it to resolve before refunding it in full.", { param: "action" });
    const local = t.amountLocal - t.refundedLocal;
    if (local <= 0n) return null;
    const usd = await refundUsdShare(tx, t, local);
    const at = new Date();
    const fromFinancing = await financingShare(tx, t, local);
    const split = { ...(await freezeFunds(tx, t, usd - fromFinancing, { allowNegative: true })), fromFinancing };
    const claim = await tx.claim.create({
      data: { id: newClaimId(), merchantId: t.merchantId, environment: t.environment, transactionId: id, kind: "user_dispute", status: "resolved", amountLocal: local, amountUsd: usd, frozenFromPending: split.fromPending, financingReversed: fromFinancing, currency: t.currencyLocal, reason: opts.reason ?? "sandbox_simulation", history: [{ status: "resolved", at: at.toISOString() }], resolvedAt: at },
    });
    const updated = await tx.transaction.update({ where: { id }, data: { status: "refunded", refundedLocal: t.amountLocal } });
    return { result: { transaction: updated, eventsFired: ["payment.refunded"] }, postings: [refundImmediate(claim, split)], events: paymentEvents(updated, ["payment.refunded"]) };
  }));
}

/**
 * A chargeback on a completed payment: the claim opens and what is still captured (not refunded,
 * not already being refunded) is frozen; the status stays completed. A payment has at most one
 * open chargeback (a second dispute of the same payment changes nothing).
 */
export async function openChargeback(id: string, reason = "chargeback", opts: InTransaction = {}): Promise<TransitionResult & { claim: Claim | null }> {
  const r = await transition(paymentOp(id, "openChargeback", ["completed"], opts, async (tx, t) => {
    const held = await tx.claim.findMany({ where: { transactionId: id, status: { in: ["pending", "open"] } }, select: { kind: true, amountLocal: true, amountUsd: true } });
    if (held.some((c) => c.kind === "chargeback")) return null;
    const local = t.amountLocal - t.refundedLocal - held.reduce((sum, c) => sum + c.amountLocal, 0n);
    if (local <= 0n) return null;
    const usd = await refundUsdShare(tx, t, local);
    const at = new Date();
    const split = await freezeFunds(tx, t, usd, { allowNegative: true });
    const claim = await tx.claim.create({
      data: { id: newClaimId(), merchantId: t.merchantId, environment: t.environment, transactionId: id, kind: "chargeback", status: "open", amountLocal: local, amountUsd: usd, frozenFromPending: split.fromPending, currency: t.currencyLocal, reason, history: [{ status: "open", at: at.toISOString() }], createdAt: at, dueBy: new Date(at.getTime() + CHARGEBACK_EVIDENCE_DAYS * 86_400_000) },
    });
    const eventsFired: EventType[] = ["chargeback.created", "claim.opened"];
    return { result: { claim, eventsFired }, postings: [freeze("chargeback_freeze", claim, split)], events: claimEvents(claim, eventsFired) };
  }));
  return r.changed ? { transaction: r.row, changed: true, eventsFired: r.result.eventsFired, claim: r.result.claim } : { transaction: r.row!, changed: false, eventsFired: [], claim: null };
}

/** Evidence against a chargeback is taken for this many days after it opens (decisions.md). */
export const CHARGEBACK_EVIDENCE_DAYS = 7;

