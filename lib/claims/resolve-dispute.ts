// The end of a dispute: a chargeback or a PIX MED claim, open -> won | lost. One transition for
// both, because both freeze the claimed amount when they open (claims/transitions.ts, pix-med.ts)
// and both end the same way on `won` (the frozen money back to the bucket it came from). Only
// `lost` differs, and the table below says how:
// - chargeback: the money leaves with the chargeback fee; the payment reads `chargeback`;
// - pix_med: the money goes back to the payer, with no fee (BCB's MED: a return, as a refund);
//   the payment's refunded amount grows and payment.refunded fires, as for a refund the shop made.
// A claim no longer open: 409 claim_already_resolved. A refund claim is not a dispute: not found.
import { AppError } from "@/lib/platform/errors";
import { chargebackLost, freezeRelease, medReturned, type Posting } from "@/lib/ledger/recipes";
import { transition, type Emit } from "@/lib/ledger/transition";
import { lockTransaction, paymentEvents, scopeOf } from "@/lib/payments/transitions";
import { EVIDENCE_META, presentClaim, type ClaimHistory } from "@/lib/claims/present";
import { CHARGEBACK_FEE_USD_MINOR, lockClaim, releaseToPending } from "@/lib/claims/transitions";
import type { Claim, Transaction } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/platform/db";

export type DisputeKind = "chargeback" | "pix_med";

type Lost = { posting: Posting; events: Emit[] };

const DISPUTES: Record<DisputeKind, { won: "chargeback_won" | "med_released"; wonNeeds: string; lose: (tx: Tx, c: Claim, t: Transaction) => Promise<Lost> }> = {
  chargeback: {
    won: "chargeback_won",
    wonNeeds: "A chargeback is won with evidence: submit it with POST /claims/{id}/evidence before dueBy.",
    lose: async (tx, c, t) => {
      await tx.transaction.update({ where: { id: t.id }, data: { status: "chargeback" } });
      return { posting: chargebackLost(c, CHARGEBACK_FEE_USD_MINOR), events: [] };
    },
  },
  pix_med: {
    won: "med_released",
    wonNeeds: "A MED claim is won with a defence: submit it with POST /claims/{id}/evidence before dueBy.",
    lose: async (tx, c, t) => {
      const refunded = t.refundedLocal + c.amountLocal;
      const payment = await tx.transaction.update({ where: { id: t.id }, data: { refundedLocal: refunded, ...(refunded >= t.amountLocal ? { status: "refunded" } : {}) } });
      return { posting: medReturned(c), events: paymentEvents(payment, ["payment.refunded"]) };
    },
  },
};

const isDispute = (kind: string): kind is DisputeKind => kind in DISPUTES;

export type ResolveDisputeOptions = {
  /** Only a claim of this merchant and environment (and shop, for a shop-bound key): others are claim_not_found. */
  scope?: { merchantId: string; environment: Transaction["environment"]; shopId?: string | null };
  /** `won` only with evidence (a MED's defence) submitted before dueBy: the sandbox outcome (decisions.md). */
  requireEvidence?: boolean;
  /** Runs first in the transition's transaction (bindIdempotency of the accept). */
  before?: (tx: Tx) => Promise<void>;
  now?: Date;
};

export async function resolveDispute(claimId: string, outcome: "won" | "lost", opts: ResolveDisputeOptions = {}): Promise<Claim> {
  const { scope } = opts;
  const r = await transition({
    name: "resolveDispute",
    before: opts.before,
    // The claim, then its payment, then (in the kernel) the ledger: the order every money move takes.
    load: async (tx) => {
      const claim = await lockClaim(tx, claimId);
      if (!claim || !isDispute(claim.kind)) return null;
      if (scope && (claim.merchantId !== scope.merchantId || claim.environment !== scope.environment)) return null;
      const payment = (await lockTransaction(tx, claim.transactionId))!;
      if (scope?.shopId && payment.shopId !== scope.shopId) return null;
      return { claim, payment, kind: DISPUTES[claim.kind] };
    },
    missing: () => new AppError("claim_not_found", "No such chargeback or MED claim.", { param: "id" }),
    ledger: ({ payment }) => scopeOf(payment),
    status: ({ claim }) => claim.status,
    from: ["open"],
    refuse: ({ claim }) => new AppError("claim_already_resolved", `The claim is already ${claim.status}.`, { details: { status: claim.status } }),
    apply: async (tx, { claim: c, payment: t, kind }) => {
      const at = opts.now ?? new Date();
      const evidence = await tx.claimEvidence.findMany({ where: { claimId }, select: EVIDENCE_META, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
      if (outcome === "won" && opts.requireEvidence && !evidence.some((e) => !c.dueBy || e.createdAt <= c.dueBy)) {
        throw new AppError("missing_required_fields", kind.wonNeeds, { param: "evidence" });
      }
      const lost = outcome === "lost" ? await kind.lose(tx, c, t) : null;
      const posting = lost ? lost.posting : freezeRelease(kind.won, c, await releaseToPending(tx, t, c));
      const updated = await tx.claim.update({ where: { id: claimId }, data: { status: outcome, resolvedAt: at, history: [...(c.history as ClaimHistory), { status: outcome, at: at.toISOString() }] } });
      const events: Emit[] = [{ type: "claim.resolved", object: presentClaim(updated, evidence) }, ...(lost?.events ?? [])];
      return { result: updated, postings: [posting], events };
    },
  });
  return r.changed ? r.result : r.row!.claim;
}
