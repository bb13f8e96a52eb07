// POST /providers/{stripe|mercadopago|ebanx}/notifications: a real provider's notice, in its own
// scheme. It is verified by the connector first (Stripe-Signature, Mercado Pago's x-signature
// manifest, EBANX's RSA-SHA1 X-SignatureContent) and refused with 401 before anything of it is read; then it is only
// a pointer: each charge it names is read back from the provider's API and what the provider says
// now is applied (a notice that claims "paid" for a charge the provider calls pending changes
// nothing). Refunds and payouts it names are checked by their status jobs at once.
//
// Recorded once: the notice id commits with its effect (lib/providers/notice-pipeline.ts' rule),
// so a duplicate delivery is acknowledged and changes nothing. A read-back without an answer
// (timeout, 5xx) is 503 and records nothing: the provider delivers again, as each of them
// retries a notice that was not acknowledged with a 2xx.
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { connectorFor } from "@/lib/providers/connectors";
import { isRealConnector, type ChargeReadBack, type InboundNotice, type NoticeSubject, type RealConnector } from "@/lib/providers/types";
import { noticeRecorded, recordNoticeId, type NoticeAnswer } from "@/lib/providers/notice-pipeline";

const select = { id: true, amountLocal: true, currencyLocal: true, provider: true, attempts: true, environment: true } as const;

/** The transaction a read-back charge belongs to: by the provider's id, else by our reference when this provider was one of its attempts. */
async function chargeOf(provider: string, back: Extract<ChargeReadBack, { kind: "found" }>) {
  const byRef = await db().transaction.findFirst({ where: { provider, providerRef: back.providerRef }, select });
  if (byRef || !back.reference) return byRef;
  const t = await db().transaction.findUnique({ where: { id: back.reference }, select });
  const attempts = Array.isArray(t?.attempts) ? (t!.attempts as Array<{ provider?: string }>) : [];
  const attempted = attempts.length === 0 || attempts.some((a) => a?.provider === provider);
  return t && t.environment === "production" && attempted ? t : null;
}


class AlreadyRecorded extends Error {}

async function applyCharge(c: RealConnector, noticeId: string, subject: Extract<NoticeSubject, { kind: "charge" }>): Promise<boolean> {
  const back = await c.readCharge(subject.providerRef);
  if (back.kind === "unknown") throw new AppError("service_unavailable", `${c.code} did not answer for charge ${subject.providerRef}; deliver the notice again.`, { details: { reason: back.reason } });
  if (back.kind === "not_found") {
    log.warn({ provider: c.code, providerRef: subject.providerRef, noticeId }, "signed notice names a charge its provider does not know; nothing applied");
    return false;
  }
  const tx = await chargeOf(c.code, back);
  if (!tx) {
    log.warn({ provider: c.code, providerRef: back.providerRef, noticeId }, "provider notice for an unknown charge");
    return false;
  }
  // Money moves (paid, refunded, chargeback) only on an amount and currency read and equal to ours. A read-back without them
  // (a field missing, an amount we could not read exactly) is no answer: 503, delivered again.
  if ((back.status === "paid" || back.status === "refunded" || back.status === "chargeback") && (back.amountMinor === null || !back.currency)) {
    throw new AppError("service_unavailable", `${c.code}'s answer for charge ${back.providerRef} carries no readable amount or currency; deliver the notice again.`, { details: { reason: "amount_unreadable" } });
  }
  if ((back.amountMinor !== null && back.amountMinor !== tx.amountLocal) || (back.currency && back.currency.toUpperCase() !== tx.currencyLocal)) {
    log.error({ provider: c.code, transactionId: tx.id, amount: back.amountMinor?.toString() ?? null, expected: tx.amountLocal.toString() }, "provider's charge differs from ours in amount or currency; not applied");
    return false;
  }
  if (back.status === "pending") return false;
  if (back.status === "refunded") {
    // Our own refund claims on the way (the provider refunded what we asked): their status jobs
    // resolve them, now. Refunding the rest in full beside an open claim would refund it twice.
    const open = await db().claim.findMany({ where: { transactionId: tx.id, status: { in: ["pending", "open"] } }, select: { id: true } });
    if (open.length) {
      for (const claim of open) await nudge(c.code, { kind: "refund", reference: claim.id });
      return false;
    }
  }
  // A status other than paid from an attempt the cascade left behind says nothing of the charge we kept.
  if (tx.provider !== c.code && back.status !== "paid") return false;
  const inTransaction = async (t: Tx) => {
    if (!(await recordNoticeId(t, c.code, noticeId))) throw new AlreadyRecorded();
  };
  return applyProviderStatus(tx.id, back.status, { inTransaction, ...(back.status === "paid" ? { paidBy: { provider: c.code, providerRef: back.providerRef }, ...(back.installmentsCount !== undefined ? { installmentsCount: back.installmentsCount } : {}) } : {}) });
}

/** A refund's or payout's notice: its status job asks the provider now rather than at its next turn. */
async function nudge(provider: string, subject: Exclude<NoticeSubject, { kind: "charge" }>): Promise<void> {
  if (subject.kind === "payout") await db().payout.updateMany({ where: { id: subject.reference, provider, status: "processing" }, data: { checkAfter: new Date() } });
  else await db().scheduledAction.updateMany({ where: { claimId: subject.reference, action: "provider_refund_status", state: "pending", dueAt: { gt: new Date() } }, data: { dueAt: new Date() } });
}

export async function applyRealProviderNotice(provider: string, notice: InboundNotice): Promise<NoticeAnswer> {
  const c = connectorFor(provider);
  if (!isRealConnector(c)) throw new AppError("invalid_signature", "The notice is unsigned or its signature does not verify.");
  const reading = await c.readNotice(notice);
  if (reading.kind === "refused") {
    if (reading.check === "stale") throw new AppError("invalid_signature", "The notice's signed timestamp is outside the tolerance; it is refused as a possible replay.", { details: { reason: "timestamp_out_of_tolerance" } });
    throw new AppError("invalid_signature", "The notice is unsigned or its signature does not verify.");
  }
  const { noticeId, subjects } = reading;
  if (await noticeRecorded(provider, noticeId)) return { received: true, applied: false };
  // One subject records the notice's own id with its effect; several (an EBANX notice naming
  // several payments) each record their own part, so the first one's effect never stops the rest,
  // and a redelivery after a 503 midway applies only what was not applied yet.
  const partOf = (s: NoticeSubject) => (subjects.length === 1 ? noticeId : `${noticeId}|${s.kind}:${s.kind === "charge" ? s.providerRef : s.reference}`.slice(0, 200));
  let applied = false;
  for (const subject of subjects) {
    const part = partOf(subject);
    if (subjects.length > 1 && (await noticeRecorded(provider, part))) continue;
    try {
      const changed = subject.kind === "charge" ? await applyCharge(c, part, subject) : (await nudge(provider, subject), false);
      applied ||= changed;
      // A part that applied nothing (a pending charge, a nudge) is recorded all the same, once.
      if (!changed && subjects.length > 1) await db().$transaction((t) => recordNoticeId(t, provider, part));
    } catch (err) {
      if (!(err instanceof AlreadyRecorded)) throw err;
      if (subjects.length === 1) return { received: true, applied: false };
    }
  }
  if (subjects.length > 1 || !applied) await db().$transaction((t) => recordNoticeId(t, provider, noticeId));
  return { received: true, applied };
}
