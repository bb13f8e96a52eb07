// POST /payments/{id}/refund: a refund is a claim of kind user_dispute, created pending with the
// amount frozen (an operation of the money kernel, lib/ledger/transition.ts). The provider's
// confirmation resolves it (sandbox: automatically after the simulate delay); a rejection
// releases the freeze.
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { freeze } from "@/lib/ledger/recipes";
import { transition } from "@/lib/ledger/transition";
import { lockTransaction } from "@/lib/payments/transitions";
import { financingShare, freezeFunds, newClaimId, refundUsdShare } from "@/lib/claims/transitions";
import { sandboxDelayMs } from "@/lib/payments/sandbox-schedule";
import { presentRefund } from "@/lib/claims/present";
import { JOB_SIGNALS } from "@/lib/platform/outbox/wake";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { refundableLocal } from "@/lib/claims/refundable";

export const SANDBOX_REFUND_CONFIRM_SECONDS = 5;

export async function refundPayment(auth: AuthContext, id: string, input: { amount?: unknown; reason?: string }) {
  const r = await transition({
    name: "refundPayment",
    load: async (tx) => {
      const t = await lockTransaction(tx, id);
      return t && t.merchantId === auth.merchant.id && t.environment === auth.environment && (!auth.shop || t.shopId === auth.shop.id) ? t : null;
    },
    missing: () => new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" }),
    ledger: (t) => ({ merchantId: t.merchantId, environment: t.environment, shopId: t.shopId }),
    status: (t) => t.status,
    from: ["completed"],
    refuse: (t) => new AppError("invalid_request", `Only completed payments can be refunded; this one is ${t.status}.`, { param: "id", details: { status: t.status } }),
    apply: async (tx, t) => {
      // What is still captured: not refunded, not being refunded, not disputed by an open or lost chargeback.
      const remaining = await refundableLocal(tx, t);
      const local = input.amount !== undefined ? parseAmount(input.amount, t.currencyLocal) : remaining;
      if (remaining <= 0n || local > remaining) {
        throw new AppError("amount_out_of_limits", `At most ${toMajor(remaining > 0n ? remaining : 0n, t.currencyLocal)} ${t.currencyLocal} of this payment can still be refunded.`, {
          param: "amount",
          details: { limit: { min: remaining > 0n ? toMajor(1n, t.currencyLocal) : 0, max: toMajor(remaining > 0n ? remaining : 0n, t.currencyLocal), currency: t.currencyLocal }, boundViolated: "max" },
        });
      }
      const usd = await refundUsdShare(tx, t, local);
      // A shop-paid installment plan: the fee's share comes back from financing_fees, the rest from the shop.
      const fromFinancing = await financingShare(tx, t, local);
      const split = { ...(await freezeFunds(tx, t, usd - fromFinancing, { allowNegative: false })), fromFinancing };
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
          frozenFromPending: split.fromPending,
          financingReversed: fromFinancing,
          currency: t.currencyLocal,
          reason: input.reason ?? null,
          history: [{ status: "pending", at: now.toISOString() }],
        },
      });
      await bindIdempotency(tx, { resource: "claim", id: created.id });
      // Sandbox confirms on its own after the simulate delay; production asks the provider (after
      // commit, through the job runner, retried until it answers).
      const sandbox = t.environment === "sandbox";
      await tx.scheduledAction.create({
        data: { id: newId("scheduledAction"), kind: "claim_resolution", claimId: created.id, transactionId: id, action: sandbox ? "resolve" : "provider_refund", dueAt: new Date(now.getTime() + (sandbox ? sandboxDelayMs(SANDBOX_REFUND_CONFIRM_SECONDS) : 0)) },
      });
      return { result: created, postings: [freeze("refund_freeze", created, split)], wake: [{ name: JOB_SIGNALS.scheduledActionCreated, data: { id: created.id } }] };
    },
  });
  // Not changed only when the row vanished between the checks (the kernel refuses every other case).
  if (!r.changed) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
  return presentRefund(r.result);
}
