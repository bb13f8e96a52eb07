// A pending refund claim reaches its end: resolved (the frozen amount leaves; the payment is
// refunded once everything is; payment.refunded + claim.resolved) or rejected (the freeze goes
// back to the bucket it came from). An operation of the money kernel (lib/ledger/transition.ts).
import { AppError } from "@/lib/platform/errors";
import { freezeRelease, refundResolved } from "@/lib/ledger/recipes";
import { transition, type Emit } from "@/lib/ledger/transition";
import { lockTransaction } from "@/lib/payments/transitions";
import { lockClaim, releaseToPending } from "@/lib/claims/transitions";
import { presentTransaction } from "@/lib/payments/present";
import { presentClaim, type ClaimHistory } from "@/lib/claims/present";
import type { Claim } from "@/lib/generated/prisma/client";

export async function resolveRefund(claimId: string, outcome: "resolved" | "rejected"): Promise<{ claim: Claim; changed: boolean }> {
  const r = await transition({
    name: "resolveRefund",
    load: async (tx) => {
      const claim = await lockClaim(tx, claimId);
      if (!claim || claim.kind !== "user_dispute") return null;
      return { claim, payment: (await lockTransaction(tx, claim.transactionId))! };
    },
    missing: () => new AppError("claim_not_found", "No such refund claim."),
    ledger: ({ claim, payment }) => ({ merchantId: claim.merchantId, environment: claim.environment, shopId: payment.shopId }),
    status: ({ claim }) => claim.status,
    from: ["pending"],
    apply: async (tx, { claim: c, payment: t }) => {
      const at = new Date();
      const posting = outcome === "resolved" ? refundResolved(c) : freezeRelease("refund_rejected", c, await releaseToPending(tx, t, c));
      const claim = await tx.claim.update({ where: { id: claimId }, data: { status: outcome, resolvedAt: at, history: [...(c.history as ClaimHistory), { status: outcome, at: at.toISOString() }] } });
      const events: Emit[] = [];
      if (outcome === "resolved") {
        const refundedLocal = t.refundedLocal + c.amountLocal;
        const updated = await tx.transaction.update({ where: { id: t.id }, data: { refundedLocal, ...(refundedLocal >= t.amountLocal ? { status: "refunded" } : {}) } });
        events.push({ type: "payment.refunded", object: presentTransaction(updated) });
      }
      events.push({ type: "claim.resolved", object: presentClaim(claim) });
      return { result: claim, postings: [posting], events };
    },
  });
  return r.changed ? { claim: r.result, changed: true } : { claim: r.row!.claim, changed: false };
}
