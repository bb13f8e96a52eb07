// Idempotent replays re-rendered from the resource a use case bound (bindIdempotency), for the
// one case where the stored answer is missing: the process died after the change committed and
// before the answer was stored. Each renders the endpoint's success answer from the row as it is
// now (a payout may have moved on since), with the endpoint's status code; nothing here writes.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { bucketTotals } from "@/lib/ledger/post";
import { presentCreated } from "@/lib/payments/present";
import { presentRefund } from "@/lib/claims/present";
import { presentSession } from "@/lib/checkout/present";
import { presentOneShot } from "@/lib/checkout/create-session";
import { presentPayout } from "@/lib/payouts/present";
import { payoutIconUrl, payoutMethodById } from "@/lib/payouts/methods";
import { getPayoutBalance, payoutBalances, presentBalances } from "@/lib/payouts/balances";
import { parseAmount } from "@/lib/payouts/send-payout";
import { present as presentSwap } from "@/lib/payouts/swap";
import { presentAccount, presentDeposit } from "@/lib/deposits/present";
import { presentSubscription, signingSecrets, subscriptionScope } from "@/lib/webhooks/subscriptions";
import { getClaim } from "@/lib/claims/get-claim";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import { presentTopup } from "@/lib/topups/topups";
import { presentQrOrder } from "@/lib/qr/present";
import { presentSettlement } from "@/lib/settlements/present";
import type { ResourceRef } from "@/lib/platform/idempotency/idempotency";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;
const scope = (auth: Ctx) => ({ merchantId: auth.merchant.id, environment: auth.environment });

function gone(ref: ResourceRef): never {
  // A bound resource is never deleted; reaching this means the data was removed by hand.
  throw new AppError("internal_error", `The ${ref.resource} ${ref.id} this Idempotency-Key created is gone.`);
}

async function createdPayment(auth: Ctx, ref: ResourceRef) {
  const row = await db().transaction.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return presentCreated(row ?? gone(ref));
}

/** POST /payments and /transactions. */
export const replayPayment = (auth: Ctx, ref: ResourceRef) => createdPayment(auth, ref);

/** POST /checkout/sessions: a selector session, or the payment of a one-shot session. */
export async function replayCheckoutSession(auth: Ctx, ref: ResourceRef) {
  if (ref.resource === "payment") return presentOneShot(await createdPayment(auth, ref));
  const row = await db().checkoutSession.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return presentSession(row ?? gone(ref));
}

/** POST /payments/{id}/refund. */
export async function replayRefund(auth: Ctx, ref: ResourceRef) {
  const row = await db().claim.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return presentRefund(row ?? gone(ref));
}

/** POST /me/payout/send: a payout the provider refused replays the 422 it answered. */
export async function replayPayout(auth: Ctx, ref: ResourceRef) {
  const p = (await db().payout.findFirst({ where: { id: ref.id, ...scope(auth) } })) ?? gone(ref);
  if (p.status === "failed") {
    throw new AppError("payout_dispatch_failed", `The provider did not take the payout (${p.failureReason}); the debit was reversed.`, {
      details: { failureReason: p.failureReason, payoutId: p.id, provider: p.provider },
    });
  }
  const method = payoutMethodById(auth.environment, p.methodId);
  const icon = method ? payoutIconUrl(method) : "";
  return { payout: presentPayout(p), methodName: p.methodName, logoUrl: icon, iconUrl: icon };
}

/** POST /me/payout/transfer (balances as they are now). */
export async function replayTransfer(auth: Ctx, ref: ResourceRef) {
  const t = (await db().payoutTransfer.findFirst({ where: { id: ref.id, ...scope(auth) } })) ?? gone(ref);
  const payin = await bucketTotals(db(), auth.merchant.id, auth.environment);
  return {
    transfer: { id: t.id, amountUsd: toMajor(t.amountUsd, "USD"), createdAt: t.createdAt.toISOString() },
    payinAvailableUsd: toMajor(payin.available, "USD"),
    payoutBalance: await getPayoutBalance(auth),
  };
}

/** POST /me/payout/fund-sandbox: the request named the amount (a replay's body is the same). */
export async function replayFunding(auth: Ctx, body: { currency: string; amount: unknown }) {
  const currency = body.currency.toUpperCase();
  return { currency, amount: toMajor(parseAmount(body.amount, currency), currency), balances: presentBalances(await payoutBalances(db(), auth.merchant.id, auth.environment)) };
}

/** POST /me/payout/swap. */
export async function replaySwap(auth: Ctx, ref: ResourceRef) {
  const q = (await db().payoutSwap.findFirst({ where: { id: ref.id, ...scope(auth) } })) ?? gone(ref);
  return {
    swap: { ...presentSwap(q), executedAt: (q.executedAt ?? q.createdAt).toISOString() },
    balances: presentBalances(await payoutBalances(db(), auth.merchant.id, auth.environment)),
  };
}

/** POST /me/deposit-accounts (only a created account binds: 201). */
export async function replayDepositAccount(auth: Ctx, ref: ResourceRef) {
  const a = await db().depositAccount.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { created: true, account: presentAccount(a ?? gone(ref)) };
}

/** POST /me/deposit-accounts/{id}/simulate-deposit (bound by tracking key: 201). */
export async function replayDeposit(auth: Ctx, accountId: string, ref: ResourceRef) {
  const d = await db().deposit.findFirst({ where: { depositAccountId: accountId, trackingKey: ref.id, ...scope(auth) } });
  return { created: true, deposit: presentDeposit(d ?? gone(ref)) };
}

/** POST /webhooks: the secret is never stored in an answer; it is opened from the subscription. */
export async function replayWebhook(auth: Pick<AuthContext, "merchant" | "shop" | "environment">, ref: ResourceRef) {
  const s = (await db().webhookSubscription.findFirst({ where: { id: ref.id, ...subscriptionScope(auth) } })) ?? gone(ref);
  return { ...presentSubscription(s), secret: signingSecrets(s).current };
}

// The sandbox simulate endpoints bind the record they moved (bindOnNextTransition): a lost
// answer replays that record as it is now, in the endpoint's answer shape.

/** POST /claims/{id}/simulate. */
export const replayClaimSimulation = (auth: Pick<AuthContext, "merchant" | "environment" | "shop">, ref: ResourceRef) => getClaim(auth, ref.id);

/** POST /me/payout/send/{id}/simulate. */
export async function replayPayoutSimulation(auth: Ctx, ref: ResourceRef) {
  const p = await db().payout.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { payout: presentPayout(p ?? gone(ref)) };
}

/** POST /me/withdrawals/{id}/simulate. */
export async function replayWithdrawalSimulation(auth: Ctx, ref: ResourceRef) {
  const w = await db().withdrawal.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { withdrawal: presentWithdrawal(w ?? gone(ref)) };
}

/** POST /me/payout/topups/{id}/simulate. */
export async function replayTopupSimulation(auth: Ctx, ref: ResourceRef) {
  const t = await db().topup.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { topup: presentTopup(t ?? gone(ref)) };
}

/** POST /qr/orders/{id}/simulate. */
export async function replayQrOrderSimulation(auth: Ctx, ref: ResourceRef) {
  const o = await db().qrOrder.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { order: presentQrOrder(o ?? gone(ref)) };
}

/** POST /settlements/{id}/simulate. */
export async function replaySettlementSimulation(auth: Ctx, ref: ResourceRef) {
  const s = await db().settlement.findFirst({ where: { id: ref.id, ...scope(auth) } });
  return { settlement: presentSettlement(s ?? gone(ref)) };
}
