// Idempotent replays of payouts endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { bucketTotals } from "@/lib/ledger/post";
import { presentPayout } from "@/lib/payouts/present";
import { payoutIconUrl, payoutMethodById } from "@/lib/payouts/methods";
import { getPayoutBalance, payoutBalances, presentBalances } from "@/lib/payouts/balances";
import { parseAmount } from "@/lib/payouts/send-payout";
import { present as presentSwap } from "@/lib/payouts/swap";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /me/payout/send: a payout the provider refused replays the 422 it answered. */
export async function replayPayout(auth: Ctx, ref: ResourceRef) {
  const p = (await db().payout.findFirst({ where: { id: ref.id, ...merchantScope(auth) } })) ?? boundResourceGone(ref);
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
  const t = (await db().payoutTransfer.findFirst({ where: { id: ref.id, ...merchantScope(auth) } })) ?? boundResourceGone(ref);
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
  const q = (await db().payoutSwap.findFirst({ where: { id: ref.id, ...merchantScope(auth) } })) ?? boundResourceGone(ref);
  return {
    swap: { ...presentSwap(q), executedAt: (q.executedAt ?? q.createdAt).toISOString() },
    balances: presentBalances(await payoutBalances(db(), auth.merchant.id, auth.environment)),
  };
}

/** POST /me/payout/send/{id}/simulate. */
export async function replayPayoutSimulation(auth: Ctx, ref: ResourceRef) {
  const p = await db().payout.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { payout: presentPayout(p ?? boundResourceGone(ref)) };
}
