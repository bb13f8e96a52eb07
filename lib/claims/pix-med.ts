// PIX MED (Mecanismo Especial de Devolução) claims, decisions.md "PIX disputes (MED)": the payer's
// bank reports an infraction on a PIX payment; the claimed amount is blocked in the shop's balance
// at once (the same freeze as a chargeback), the shop answers with its defence before `dueBy`
// (PIX_MED_RESPONSE_DAYS, 7 by default) and the outcome either releases the money (`won`) or
// returns it to the payer (`lost`: a debit of the blocked amount, as a refund, with no fee).
// A claim is taken up to 80 days after the payment; an older one is refused and logged.
// Each step is an operation of the money kernel on the payment's row, as every claim transition.
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import type { EventType } from "@/lib/platform/outbox/emit";
import { freeze, freezeRelease, medReturned } from "@/lib/ledger/recipes";
import { transition, type Emit } from "@/lib/ledger/transition";
import { lockTransaction, paymentEvents, paymentOp, scopeOf, type InTransaction } from "@/lib/payments/transitions";
import { EVIDENCE_META, presentClaim, type ClaimHistory } from "@/lib/claims/present";
import { freezeFunds, lockClaim, newClaimId, refundUsdShare, releaseToPending } from "@/lib/claims/transitions";
import type { Claim, Transaction } from "@/lib/generated/prisma/client";
import { db, type Tx } from "@/lib/platform/db";

/** MED claims are accepted up to this many days after the payment (BCB's MED rules; decisions.md). */
export const MED_WINDOW_DAYS = 80;
const DAY_MS = 86_400_000;

export type OpenMedResult = { opened: Claim | null; refusal: "not_pix" | "too_late" | "nothing_left" | "already_open" | null };

/** Why a payment can take no MED claim now; null: it can. Refusals the caller words (sandbox 400, notice log). */
function medRefusal(t: Transaction, now: Date): OpenMedResult["refusal"] {
  if (t.method !== "pix") return "not_pix";
  const paidAt = t.completedAt ?? t.createdAt;
  if (now.getTime() - paidAt.getTime() > MED_WINDOW_DAYS * DAY_MS) return "too_late";
  return null;
}

/**
 * completed PIX payment -> a `pix_med` claim, open, for `amountLocal` (default: all still captured,
 * neither refunded nor held by another claim), blocked at once. One open MED per payment: a second
 * notice of the same infraction changes nothing.
 */
export async function openMed(id: string, opts: InTransaction & { amountLocal?: bigint; reason?: string; now?: Date } = {}): Promise<OpenMedResult> {
  let refusal: OpenMedResult["refusal"] = null;
  const r = await transition(paymentOp(id, "openMed", ["completed"], opts, async (tx, t) => {
    const at = opts.now ?? new Date();
    refusal = medRefusal(t, at);
    if (refusal) return null;
    const held = await tx.claim.findMany({ where: { transactionId: id, status: { in: ["pending", "open"] } }, select: { kind: true, amountLocal: true } });
    if (held.some((c) => c.kind === "pix_med")) return (refusal = "already_open"), null;
    const left = t.amountLocal - t.refundedLocal - held.reduce((sum, c) => sum + c.amountLocal, 0n);
    const local = opts.amountLocal !== undefined && opts.amountLocal < left ? opts.amountLocal : left;
    if (local <= 0n) return (refusal = "nothing_left"), null;
    const usd = await refundUsdShare(tx, t, local);
    const split = await freezeFunds(tx, t, usd, { allowNegative: true });
    const claim = await tx.claim.create({
      data: { id: newClaimId(), merchantId: t.merchantId, environment: t.environment, transactionId: id, kind: "pix_med", status: "open", amountLocal: local, amountUsd: usd, frozenFromPending: split.fromPending, currency: t.currencyLocal, reason: opts.reason ?? "pix_med", history: [{ status: "open", at: at.toISOString() }], createdAt: at, dueBy: new Date(at.getTime() + config().PIX_MED_RESPONSE_DAYS * DAY_MS) },
    });
    const eventsFired: EventType[] = ["claim.opened"];
    return { result: claim, postings: [freeze("med_freeze", claim, split)], events: eventsFired.map((type) => ({ type, object: presentClaim(claim) })) };
  }));
  return { opened: r.changed ? r.result : null, refusal };
}

export type ResolveMedOptions = {
  scope?: { merchantId: string; environment: Transaction["environment"]; shopId?: string | null };
  /** `won` only with a defence submitted before dueBy (the sandbox outcome, as for chargebacks). */
  requireDefence?: boolean;
  before?: (tx: Tx) => Promise<void>;
  now?: Date;
};

/**
 * open -> won (the blocked money back where it came from) | lost (returned to the payer: the
 * payment's refunded amount grows, and a payment returned in full reads refunded).
 * A claim no longer open: 409 claim_already_resolved.
 */
export async function resolveMed(claimId: string, outcome: "won" | "lost", opts: ResolveMedOptions = {}): Promise<Claim> {
  const { scope } = opts;
  const r = await transition({
    name: "resolveMed",
    before: opts.before,
    load: async (tx) => {
      const claim = await lockClaim(tx, claimId);
      if (!claim || claim.kind !== "pix_med") return null;
      if (scope && (claim.merchantId !== scope.merchantId || claim.environment !== scope.environment)) return null;
      const payment = (await lockTransaction(tx, claim.transactionId))!;
      if (scope?.shopId && payment.shopId !== scope.shopId) return null;
      return { claim, payment };
    },
    missing: () => new AppError("claim_not_found", "No such MED claim.", { param: "id" }),
    ledger: ({ payment }) => scopeOf(payment),
    status: ({ claim }) => claim.status,
    from: ["open"],
    refuse: ({ claim }) => new AppError("claim_already_resolved", `The claim is already ${claim.status}.`, { details: { status: claim.status } }),
    apply: async (tx, { claim: c, payment: t }) => {
      const at = opts.now ?? new Date();
      const evidence = await tx.claimEvidence.findMany({ where: { claimId }, select: EVIDENCE_META, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
      if (outcome === "won" && opts.requireDefence && !evidence.some((e) => !c.dueBy || e.createdAt <= c.dueBy)) {
        throw new AppError("missing_required_fields", "A MED claim is won with a defence: submit it with POST /claims/{id}/evidence before dueBy.", { param: "evidence" });
      }
      const posting = outcome === "won" ? freezeRelease("med_released", c, await releaseToPending(tx, t, c)) : medReturned(c);
      const updated = await tx.claim.update({ where: { id: claimId }, data: { status: outcome, resolvedAt: at, history: [...(c.history as ClaimHistory), { status: outcome, at: at.toISOString() }] } });
      const events: Emit[] = [{ type: "claim.resolved", object: presentClaim(updated, evidence) }];
      if (outcome === "lost") {
        // The money went back to the payer: the payment's refunded amount grows and
        // payment.refunded fires, as for a refund the shop made.
        const refunded = t.refundedLocal + c.amountLocal;
        const payment = await tx.transaction.update({ where: { id: t.id }, data: { refundedLocal: refunded, ...(refunded >= t.amountLocal ? { status: "refunded" } : {}) } });
        events.push(...paymentEvents(payment, ["payment.refunded"]));
      }
      return { result: updated, postings: [posting], events };
    },
  });
  return r.changed ? r.result : r.row!.claim;
}

/**
 * The MED claims whose answer window closed without a defence in it: each is decided for the payer
 * (lost), as the payer's bank does when the shop does not answer. Idempotent: a claim decided in
 * between is left as it is. Returns how many were decided.
 */
export async function closeUnansweredMeds(now = new Date(), opts: { merchantId?: string; limit?: number } = {}): Promise<number> {
  // A defence given in time waits for the provider's (sandbox: the tester's) decision: not selected.
  const due = await db().$queryRaw<Array<{ id: string }>>`
    SELECT c.id FROM claims c
    WHERE c.kind = 'pix_med' AND c.status = 'open' AND c.due_by < ${now}
      AND (${opts.merchantId ?? null}::text IS NULL OR c.merchant_id = ${opts.merchantId ?? null}::text)
      AND NOT EXISTS (SELECT 1 FROM claim_evidence e WHERE e.claim_id = c.id AND e.created_at <= c.due_by)
    ORDER BY c.due_by LIMIT ${opts.limit ?? 100}`;
  let decided = 0;
  for (const c of due) {
    try {
      await resolveMed(c.id, "lost", { now });
      decided++;
    } catch (e) {
      if (!(e instanceof AppError && e.code === "claim_already_resolved")) throw e;
    }
  }
  return decided;
}
