// POST /payments/{id}/refund: a refund is a claim of kind user_dispute, created pending with the
// amount frozen. The provider's confirmation resolves it (sandbox: automatically after the
// simulate delay); a rejection releases the freeze.
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { AppError } from "@/lib/errors";
import { toMajor, toMinor } from "@/lib/money/amount";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { freezeFunds, lockTransaction, newClaimId, refundUsdShare } from "@/lib/payments/transitions";
import { sandboxDelayMs } from "@/lib/payments/sandbox-schedule";
import { presentRefund } from "@/lib/claims/present";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import { bindIdempotency } from "@/lib/http/idempotency";
import type { AuthContext } from "@/lib/auth/authenticate";

export const SANDBOX_REFUND_CONFIRM_SECONDS = 5;

export async function refundPayment(auth: AuthContext, id: string, input: { amount?: unknown; reason?: string }) {
  const claim = await db().$transaction(async (tx) => {
    const t = await lockTransaction(tx, id);
    if (!t || t.merchantId !== auth.merchant.id || t.environment !== auth.environment || (auth.shop && t.shopId !== auth.shop.id)) {
      throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
    }
    if (t.status !== "completed") {
      throw new AppError("invalid_request", `Only completed payments can be refunded; this one is ${t.status}.`, { param: "id", details: { status: t.status } });
    }
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    // What is still captured: not refunded, not being refunded, not disputed by an open or lost chargeback.
    const held = await tx.claim.aggregate({ where: { transactionId: id, OR: [{ kind: "user_dispute", status: "pending" }, { kind: "chargeback", status: { in: ["open", "lost"] } }] }, _sum: { amountLocal: true } });
    const remaining = t.amountLocal - t.refundedLocal - (held._sum.amountLocal ?? 0n);
    let local = remaining;
    if (input.amount !== undefined) {
      const parsed = typeof input.amount === "number" && input.amount > 0 ? toMinor(input.amount, t.currencyLocal) : null;
      if (parsed === null || parsed <= 0n) throw new AppError("amount_invalid", `\`amount\` must be a positive number in ${t.currencyLocal} with at most its decimals.`, { param: "amount" });
      local = parsed;
    }
    if (remaining <= 0n || local > remaining) {
      throw new AppError("amount_out_of_limits", `At most ${toMajor(remaining > 0n ? remaining : 0n, t.currencyLocal)} ${t.currencyLocal} of this payment can still be refunded.`, {
        param: "amount",
        details: { limit: { min: remaining > 0n ? toMajor(1n, t.currencyLocal) : 0, max: toMajor(remaining > 0n ? remaining : 0n, t.currencyLocal), currency: t.currencyLocal }, boundViolated: "max" },
      });
    }
    const usd = await refundUsdShare(tx, t, local);
    const freeze = await freezeFunds(tx, t, usd, { allowNegative: false });
    const now = new Date();
    const created = await tx.claim.create({
      data: {
        id: newClaimId(),
        merchantId: t.merchantId,
        environment: t.environment,
        transactionId: id,
        kind: "user_dispute",
        status: "pending",
        amountLocal: local,
        amountUsd: usd,
        currency: t.currencyLocal,
        reason: input.reason ?? null,
        history: [{ status: "pending", at: now.toISOString() }],
      },
    });
    await bindIdempotency(tx, { resource: "claim", id: created.id });
    await post(tx, { merchantId: t.merchantId, environment: t.environment, kind: "refund_freeze", transactionId: id, claimId: created.id, legs: freeze.legs });
    // Sandbox confirms on its own after the simulate delay; production asks the provider (after
    // commit, through the job runner, retried until it answers).
    const sandbox = t.environment === "sandbox";
    await tx.scheduledAction.create({
      data: { id: newId("scheduledAction"), kind: "claim_resolution", claimId: created.id, transactionId: id, action: sandbox ? "resolve" : "provider_refund", dueAt: new Date(now.getTime() + (sandbox ? sandboxDelayMs(SANDBOX_REFUND_CONFIRM_SECONDS) : 0)) },
    });
    return created;
  });
  wakeJobs(JOB_EVENTS.scheduledActionCreated, { id: claim.id });
  return presentRefund(claim);
}
