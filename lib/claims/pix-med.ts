// PIX MED (Mecanismo Especial de Devolução) claims, decisions.md "PIX disputes (MED)": the payer's
// bank reports an infraction on a PIX payment; the claimed amount is blocked in the shop's balance
// at once (the same freeze as a chargeback), the shop answers with its defence before `dueBy`
// (PIX_MED_RESPONSE_DAYS, 7 by default) and the outcome either releases the money (`won`) or
// returns it to the payer (`lost`: a debit of the blocked amount, as a refund, with no fee).
// A claim is taken up to 80 days after the payment; an older one is refused and logged.
// Each step is an operation of the money kernel on the payment's row, as every claim transition;
// the end of a MED is the one of every dispute (resolve-dispute.ts).
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import type { EventType } from "@/lib/platform/outbox/emit";
import { freeze } from "@/lib/ledger/recipes";
import { transition } from "@/lib/ledger/transition";
import { paymentOp, type InTransaction } from "@/lib/payments/transitions";
import { freezeFunds, newClaimId, refundUsdShare } from "@/lib/claims/transitions";
import { presentClaim } from "@/lib/claims/present";
import { resolveDispute } from "@/lib/claims/resolve-dispute";
import type { Claim, Transaction } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";

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
      await resolveDispute(c.id, "lost", { now });
      decided++;
    } catch (e) {
      if (!(e instanceof AppError && e.code === "claim_already_resolved")) throw e;
    }
  }
  return decided;
}
