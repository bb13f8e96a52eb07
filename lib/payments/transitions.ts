// State changes of a pay-in (API reference 3.1 and decisions.md). Each runs in one database
// transaction: the row is locked, the transition is checked, the status, ledger postings and
// outbox events are written together. Applying the same transition twice changes nothing the
// second time (it returns `changed: false`).
import { db, type Tx } from "@/lib/db";
import { randomBase62 } from "@/lib/ids";
import { mulDivHalfUp, toMajor } from "@/lib/money/amount";
import { emitEvent, type EventType } from "@/lib/events/emit";
import { bucketTotals, lockMerchantLedger, post, type Leg } from "@/lib/ledger/post";
import { presentTransaction } from "@/lib/payments/present";
import { presentClaim, type ClaimHistory } from "@/lib/claims/present";
import { addDays, FLAT_FEE_USD_MINOR, RESERVE_HOLD_DAYS, settlementDays } from "@/lib/payments/pricing";
import { AppError } from "@/lib/errors";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import type { Transaction, Claim } from "@/lib/generated/prisma/client";

export const CHARGEBACK_FEE_USD_MINOR = 1500n;

export type TransitionResult = { transaction: Transaction; changed: boolean; eventsFired: EventType[] };

/** Runs first in a transition's own transaction (a provider notice records its id there, once). */
export type InTransaction = { inTransaction?: (tx: Tx) => Promise<void> };

export function newClaimId(): string {
  return `CLM-${randomBase62(16).toUpperCase()}`;
}

export async function lockTransaction(tx: Tx, id: string): Promise<Transaction | null> {
  await tx.$queryRaw`SELECT id FROM transactions WHERE id = ${id} FOR UPDATE`;
  return tx.transaction.findUnique({ where: { id } });
}

async function fire(tx: Tx, t: Transaction, types: EventType[]): Promise<EventType[]> {
  const object = presentTransaction(t);
  for (const type of types) await emitEvent(tx, { merchantId: t.merchantId, environment: t.environment, type, object });
  return types;
}

async function fireClaim(tx: Tx, c: Claim, types: EventType[]): Promise<EventType[]> {
  for (const type of types) await emitEvent(tx, { merchantId: c.merchantId, environment: c.environment, type, object: presentClaim(c) });
  return types;
}

const net = (t: Transaction) => t.amountUsd - t.feePlatform - t.feeProvider - t.feeNetwork - t.reserveAmount;

/** pending -> completed: the net to `pending`, the reserve to `reserve`, fees to their accounts. */
/** After a commit that wrote events: let the delivery job know (no-op with the local ticker). */
function afterCommit<T extends { changed: boolean }>(r: T): T {
  if (r.changed) wakeJobs(JOB_EVENTS.webhooksDue);
  return r;
}

export async function completePayment(id: string, opts: { alsoCaptured?: boolean; at?: Date } & InTransaction = {}): Promise<TransitionResult> {
  return afterCommit(await db().$transaction(async (tx) => {
    await opts.inTransaction?.(tx);
    const t = await lockTransaction(tx, id);
    if (!t) throw new AppError("transaction_not_found", "No such transaction.");
    if (t.status !== "pending") return { transaction: t, changed: false, eventsFired: [] };
    const at = opts.at ?? new Date();
    const updated = await tx.transaction.update({
      where: { id },
      data: { status: "completed", completedAt: at, settleAt: addDays(at, settlementDays(t.settlementDelay)), reserveReleaseAt: t.reserveAmount > 0n ? addDays(at, RESERVE_HOLD_DAYS) : null },
    });
    const flat = FLAT_FEE_USD_MINOR < t.feePlatform ? FLAT_FEE_USD_MINOR : t.feePlatform;
    const legs: Leg[] = [
      { account: "provider_clearing", currency: "USD", amount: -t.amountUsd },
      { account: "pending", currency: "USD", amount: net(t) },
      { account: "reserve", currency: "USD", amount: t.reserveAmount },
      { account: "platform_fees", currency: "USD", amount: t.feePlatform - flat },
      { account: "flat_fees", currency: "USD", amount: flat },
      { account: "provider_fees", currency: "USD", amount: t.feeProvider },
      { account: "network_fees", currency: "USD", amount: t.feeNetwork },
    ];
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    await post(tx, { merchantId: t.merchantId, environment: t.environment, kind: "payment_completed", transactionId: id, legs });
    const eventsFired = await fire(tx, updated, opts.alsoCaptured ? ["payment.completed", "payment.captured"] : ["payment.completed"]);
    return { transaction: updated, changed: true, eventsFired };
  }));
}

/** pending -> failed | expired. */
export async function failPayment(id: string, to: "failed" | "expired", opts: InTransaction = {}): Promise<TransitionResult> {
  return afterCommit(await db().$transaction(async (tx) => {
    await opts.inTransaction?.(tx);
    const t = await lockTransaction(tx, id);
    if (!t) throw new AppError("transaction_not_found", "No such transaction.");
    if (t.status !== "pending") return { transaction: t, changed: false, eventsFired: [] };
    const updated = await tx.transaction.update({ where: { id }, data: { status: to } });
    return { transaction: updated, changed: true, eventsFired: await fire(tx, updated, ["payment.failed"]) };
  }));
}

/**
 * Takes `usd` out of the merchant's funds into `frozen`: first what of this transaction's net is
 * still pending (not yet settled), then `available`. Without allowNegative, an available
 * balance too small is 422 balance_insufficient.
 */
export async function freezeFunds(tx: Tx, t: Transaction, usd: bigint, opts: { allowNegative: boolean }): Promise<{ legs: Leg[]; fromPending: bigint }> {
  const unsettledNet = t.settlementStatus === "pending" && t.status !== "pending" ? net(t) - t.pendingDebited : 0n;
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
  return {
    fromPending,
    legs: [
      { account: "pending", currency: "USD", amount: -fromPending },
      { account: "available", currency: "USD", amount: -fromAvailable },
      { account: "frozen", currency: "USD", amount: usd },
    ],
  };
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

/** Sandbox `refunded`: completed -> refunded at once, for everything not already refunded. */
export async function refundInFull(id: string, opts: InTransaction = {}): Promise<TransitionResult> {
  return afterCommit(await db().$transaction(async (tx) => {
    await opts.inTransaction?.(tx);
    const t = await lockTransaction(tx, id);
    if (!t) throw new AppError("transaction_not_found", "No such transaction.");
    if (t.status !== "completed") return { transaction: t, changed: false, eventsFired: [] };
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    const pendingClaims = await tx.claim.count({ where: { transactionId: id, status: { in: ["pending", "open"] } } });
    if (pendingClaims > 0) throw new AppError("invalid_request", "This payment has an open claim; wait for it to resolve before refunding it in full.", { param: "action" });
    const local = t.amountLocal - t.refundedLocal;
    if (local <= 0n) return { transaction: t, changed: false, eventsFired: [] };
    const usd = await refundUsdShare(tx, t, local);
    const at = new Date();
    const claim = await tx.claim.create({
      data: { id: newClaimId(), merchantId: t.merchantId, environment: t.environment, transactionId: id, kind: "user_dispute", status: "resolved", amountLocal: local, amountUsd: usd, currency: t.currencyLocal, reason: "sandbox_simulation", history: [{ status: "resolved", at: at.toISOString() }], resolvedAt: at },
    });
    const freeze = await freezeFunds(tx, t, usd, { allowNegative: true });
    await post(tx, {
      merchantId: t.merchantId,
      environment: t.environment,
      kind: "refund_immediate",
      transactionId: id,
      claimId: claim.id,
      legs: [...freeze.legs, { account: "frozen", currency: "USD", amount: -usd }, { account: "refunds_payable", currency: "USD", amount: usd }],
    });
    const updated = await tx.transaction.update({ where: { id }, data: { status: "refunded", refundedLocal: t.amountLocal } });
    return { transaction: updated, changed: true, eventsFired: await fire(tx, updated, ["payment.refunded"]) };
  }));
}

/**
 * A chargeback on a completed payment: the claim opens and what is still captured (not refunded,
 * not already being refunded) is frozen; the status stays completed. A payment has at most one
 * open chargeback (a second dispute of the same payment changes nothing).
 */
export async function openChargeback(id: string, reason = "chargeback", opts: InTransaction = {}): Promise<TransitionResult & { claim: Claim | null }> {
  return afterCommit(await db().$transaction(async (tx) => {
    await opts.inTransaction?.(tx);
    const t = await lockTransaction(tx, id);
    if (!t) throw new AppError("transaction_not_found", "No such transaction.");
    if (t.status !== "completed") return { transaction: t, changed: false, eventsFired: [], claim: null };
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    const held = await tx.claim.findMany({ where: { transactionId: id, status: { in: ["pending", "open"] } }, select: { kind: true, amountLocal: true, amountUsd: true } });
    if (held.some((c) => c.kind === "chargeback")) return { transaction: t, changed: false, eventsFired: [], claim: null };
    const local = t.amountLocal - t.refundedLocal - held.reduce((sum, c) => sum + c.amountLocal, 0n);
    if (local <= 0n) return { transaction: t, changed: false, eventsFired: [], claim: null };
    const usd = await refundUsdShare(tx, t, local);
    const at = new Date();
    const claim = await tx.claim.create({
      data: { id: newClaimId(), merchantId: t.merchantId, environment: t.environment, transactionId: id, kind: "chargeback", status: "open", amountLocal: local, amountUsd: usd, currency: t.currencyLocal, reason, history: [{ status: "open", at: at.toISOString() }] },
    });
    const freeze = await freezeFunds(tx, t, usd, { allowNegative: true });
    await post(tx, { merchantId: t.merchantId, environment: t.environment, kind: "chargeback_freeze", transactionId: id, claimId: claim.id, legs: freeze.legs });
    const eventsFired = [...(await fireClaim(tx, claim, ["chargeback.created", "claim.opened"]))];
    return { transaction: t, changed: true, eventsFired, claim };
  }));
}

/** open -> won (funds back to available) | lost (funds leave, plus the chargeback fee; payment -> chargeback). */
export async function resolveChargeback(claimId: string, outcome: "won" | "lost"): Promise<Claim> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM claims WHERE id = ${claimId} FOR UPDATE`;
    const c = await tx.claim.findUnique({ where: { id: claimId } });
    if (!c || c.kind !== "chargeback") throw new AppError("claim_not_found", "No such chargeback claim.");
    if (c.status !== "open") throw new AppError("claim_already_resolved", `The claim is already ${c.status}.`, { details: { status: c.status } });
    const t = (await lockTransaction(tx, c.transactionId))!;
    await lockMerchantLedger(tx, c.merchantId, c.environment);
    const at = new Date();
    const legs: Leg[] =
      outcome === "won"
        ? [{ account: "frozen", currency: "USD", amount: -c.amountUsd }, { account: "available", currency: "USD", amount: c.amountUsd }]
        : [
            { account: "frozen", currency: "USD", amount: -c.amountUsd },
            { account: "chargebacks_payable", currency: "USD", amount: c.amountUsd },
            { account: "available", currency: "USD", amount: -CHARGEBACK_FEE_USD_MINOR },
            { account: "chargeback_fees", currency: "USD", amount: CHARGEBACK_FEE_USD_MINOR },
          ];
    await post(tx, { merchantId: c.merchantId, environment: c.environment, kind: outcome === "won" ? "chargeback_won" : "chargeback_lost", transactionId: c.transactionId, claimId, legs });
    const updated = await tx.claim.update({ where: { id: claimId }, data: { status: outcome, resolvedAt: at, history: [...(c.history as ClaimHistory), { status: outcome, at: at.toISOString() }] } });
    if (outcome === "lost") await tx.transaction.update({ where: { id: t.id }, data: { status: "chargeback" } });
    await fireClaim(tx, updated, ["claim.resolved"]);
    return updated;
  });
}
