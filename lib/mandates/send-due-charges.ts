// The mandate job (lib/jobs/registry.ts, "run-mandates"), in four idempotent passes, each safe on
// several instances at once and after any crash:
//   1. expire: a mandate still pending_authorization after its startDate (São Paulo time) ends
//      expired (mandate.expired): the payer did not authorize it by the end of its first day.
//   2. close out charges: a scheduled charge whose send window closed unsent is missed; a
//      retrying one with no retry left (3 done, or 7 days past its due date) is failed, one of a
//      mandate that has ended is cancelled.
//   3. send: each charge whose window is open (10 to 2 days before its due date), or whose
//      retry is due (from the due date on, a day after the last failure), of an active mandate, is
//      claimed (scheduled|retrying -> sending, the attempt counted, its payment id derived from
//      mandate + due date + attempt, a lease) in a transaction that commits before the payment is
//      made; then the payment is created by the same use case as POST /payments (limits, fees,
//      routing, the provider cascade; production commits the row before calling a provider).
//      A run after a crash between claim and send finds the lease run out and the same payment
//      id: an existing payment is adopted, a missing one created under that id, never a second.
//      A run that misses days catches up while the window is open (the window is 8 days wide).
//   4. complete: an active mandate past its endDate with no charge still open is completed.
// Around them, for mandates held at a PSP (production): pending recurrences read back first (a
// lost notice, lib/mandates/sync-recurrence.ts), and at the end the recurrences of mandates that
// ended on our side cancelled at the PSP; and a charge paid twice (a late PAID of an earlier send
// after a retry was paid) has the later payment refunded in full (lib/mandates/refund-duplicates.ts).
// What a charge's payment then does (paid, failed, expired) reaches the charge through the
// payment's own transitions (lib/payments/mandate-mirror.ts).
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { createPayment } from "@/lib/payments/create-payment";
import { changeMandate } from "@/lib/mandates/transitions";
import { closeEndedRecurrences, syncPendingRecurrences } from "@/lib/mandates/sync-recurrence";
import { refundDuplicateCharges } from "@/lib/mandates/refund-duplicates";
import { mandateAuth } from "@/lib/mandates/mandate-auth";
import { chargePaymentId, cobrTxid } from "@/lib/mandates/charge-payment-id";
import { dayOf, endOfDay, isoDayOf, todayAt } from "@/lib/mandates/dates";
import { MANDATE_PIX } from "@/lib/mandates/rail";
import { RETRIES, SEND_HOLD_MS, SEND_LEASE_MS, SEND_WINDOW_DAYS } from "@/lib/mandates/send-window";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { CreatePaymentOptions } from "@/lib/payments/create-payment";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { Mandate } from "@/lib/generated/prisma/client";

type Opts = { now?: Date; limit?: number; /** Tests: only this merchant's rows (a future clock must not move another test's). */ merchantId?: string };
type Claimed = { id: string; mandate_id: string; /** YYYY-MM-DD */ due_date: string; attempts: number; amount: bigint; environment: Environment };

const MAX_SENDS = 1 + RETRIES.max;

export async function runMandates(opts: Opts = {}) {
  const now = opts.now ?? new Date();
  const synced = await syncPendingRecurrences(now, opts);
  const expired = await expirePendingMandates(now, opts);
  const closed = await closeOutCharges(now, opts);
  const sent = await sendDueCharges(now, opts);
  const completed = await completeEndedMandates(now, opts);
  const providerClosed = await closeEndedRecurrences(opts);
  const duplicatesRefunded = await refundDuplicateCharges(opts);
  return { synced, expired, ...closed, ...sent, completed, providerClosed, duplicatesRefunded };
}

// The merchant filter is always the last parameter: null reads every merchant's rows.
const merchantOf = (opts: Opts) => opts.merchantId ?? null;

async function expirePendingMandates(now: Date, opts: Opts): Promise<number> {
  const due = await db().$queryRawUnsafe<{ id: string }[]>(
    `SELECT m.id FROM mandates m WHERE m.status = 'pending_authorization' AND m.start_date < $1::date AND ($3::text IS NULL OR m.merchant_id = $3) ORDER BY m.start_date LIMIT $2`,
    isoDayOf(todayAt(now)),
    opts.limit ?? 200,
    merchantOf(opts),
  );
  let n = 0;
  for (const m of due) if ((await changeMandate(m.id, "expire", { at: now })).changed) n++;
  return n;
}

async function closeOutCharges(now: Date, opts: Opts): Promise<{ missed: number; failed: number; cancelled: number }> {
  const today = isoDayOf(todayAt(now));
  const missed = await db().$executeRawUnsafe(
    `UPDATE mandate_charges c SET status = 'missed', updated_at = now() WHERE c.status = 'scheduled' AND c.due_date - ${SEND_WINDOW_DAYS.last} < $1::date AND ($2::text IS NULL OR c.merchant_id = $2)`,
    today,
    merchantOf(opts),
  );
  const failed = await db().$executeRawUnsafe(
    `UPDATE mandate_charges c SET status = 'failed', updated_at = now() WHERE c.status = 'retrying' AND (c.attempts >= ${MAX_SENDS} OR c.due_date + ${RETRIES.withinDays} < $1::date) AND ($2::text IS NULL OR c.merchant_id = $2)`,
    today,
    merchantOf(opts),
  );
  // A failed send of a mandate that has since ended is not tried again.
  const cancelled = await db().$executeRawUnsafe(
    `UPDATE mandate_charges c SET status = 'cancelled', updated_at = now() FROM mandates m WHERE m.id = c.mandate_id AND c.status = 'retrying' AND m.status <> 'active' AND ($1::text IS NULL OR c.merchant_id = $1)`,
    merchantOf(opts),
  );
  return { missed, failed, cancelled };
}

/** Claims what is due (see the header, pass 3) and commits the claim before any payment is made. */
async function claimDue(now: Date, opts: Opts): Promise<Array<Claimed & { paymentId: string }>> {
  const today = isoDayOf(todayAt(now));
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<Claimed[]>(
      `WITH due AS (
         SELECT c.id FROM mandate_charges c JOIN mandates m ON m.id = c.mandate_id
         WHERE ((m.status = 'active' AND (
                  (c.status = 'scheduled' AND c.due_date - ${SEND_WINDOW_DAYS.first} <= $1::date AND $1::date <= c.due_date - ${SEND_WINDOW_DAYS.last})
               OR (c.status = 'retrying' AND c.attempts < ${MAX_SENDS} AND $1::date >= c.due_date AND $1::date <= c.due_date + ${RETRIES.withinDays}
                   AND c.last_failed_at <= $2::timestamptz - interval '${RETRIES.spacingMs} milliseconds')))
             OR (c.status = 'sending' AND c.lease_until <= $2::timestamptz))
           AND ($4::text IS NULL OR c.merchant_id = $4)
         ORDER BY c.due_date LIMIT $3
         FOR UPDATE OF c SKIP LOCKED)
       UPDATE mandate_charges c
          SET attempts = CASE WHEN c.status = 'sending' THEN c.attempts ELSE c.attempts + 1 END,
              status = 'sending', lease_until = $2::timestamptz + interval '${SEND_LEASE_MS} milliseconds', updated_at = now()
         FROM due WHERE c.id = due.id
       RETURNING c.id, c.mandate_id, c.due_date::text AS due_date, c.attempts, c.amount, c.environment::text AS environment`,
      today,
      now,
      opts.limit ?? 100,
      merchantOf(opts),
    );
    const claimed = rows.map((r) => ({ ...r, amount: BigInt(r.amount), paymentId: chargePaymentId(r.mandate_id, r.due_date, r.attempts) }));
    for (const c of claimed) {
      await tx.$executeRaw`UPDATE mandate_charges SET payment_id = ${c.paymentId}, payment_ids = CASE WHEN ${c.paymentId} = ANY(payment_ids) THEN payment_ids ELSE array_append(payment_ids, ${c.paymentId}) END WHERE id = ${c.id}`;
    }
    return claimed;
  });
}

async function sendDueCharges(now: Date, opts: Opts): Promise<{ claimed: number; sent: number; refused: number }> {
  const claimed = await claimDue(now, opts);
  let sent = 0;
  let refused = 0;
  for (const c of claimed) {
    try {
      const r = await sendOne(c, now);
      if (r === "sent") sent++;
      if (r === "refused") refused++;
    } catch (err) {
      // Unknown (the database, a bug): the charge stays sending and its lease brings it back.
      log.warn({ mandateChargeId: c.id, err: (err as Error).message }, "a mandate charge could not be sent; taken again when its lease runs out");
    }
  }
  return { claimed: claimed.length, sent, refused };
}

async function sendOne(c: Claimed & { paymentId: string }, now: Date): Promise<"sent" | "adopted" | "refused" | "cancelled"> {
  const m = await db().mandate.findUniqueOrThrow({ where: { id: c.mandate_id } });
  const existing = await db().transaction.findUnique({ where: { id: c.paymentId }, select: { status: true } });
  if (existing) {
    // A run before this one made the payment and stopped before noting it: adopted, not made again.
    await markSent(c);
    return "adopted";
  }
  // The mandate is held (FOR SHARE) from this check until the payment is committed: a cancel
  // (changeMandate locks it FOR UPDATE) waits for a send in progress, and a send that starts after
  // a cancel committed sees it. Nothing on the payment's path locks the mandate row, so the two
  // connections cannot wait on each other.
  return db().$transaction(
    async (tx) => {
      const [held] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM mandates WHERE id = ${m.id} FOR SHARE`;
      if (held?.status !== "active") {
        // Never sent for a mandate no longer active (it ended while this send was claimed).
        await tx.mandateCharge.updateMany({ where: { id: c.id, status: "sending" }, data: { status: "cancelled", leaseUntil: null } });
        return "cancelled" as const;
      }
      return makePayment(c, m, now);
    },
    // Longer than a payment's provider call (PROVIDER_<CODE>_TIMEOUT_MS, 8 s by default).
    { timeout: SEND_HOLD_MS, maxWait: 10_000 },
  );
}

/** The claimed send's payment, made by the same use case as POST /payments under its derived id. */
async function makePayment(c: Claimed & { paymentId: string }, m: Mandate, now: Date): Promise<"sent" | "refused"> {
  const input = {
    amount: toMajor(c.amount, m.currency),
    currency: m.currency,
    paymentMethodId: MANDATE_PIX[m.environment],
    merchantOrderId: `${m.id}:${c.due_date}`,
    userName: m.customerName,
    userEmail: m.customerEmail,
    documentId: m.customerDocument,
  } as CreatePaymentInput;
  // The payer's bank debits on the due date: the payment lives until that day ends (a retry, until the end of its own day).
  const expiresAt = new Date(Math.max(endOfDay(dayOf(c.due_date)).getTime(), endOfDay(todayAt(now)).getTime()));
  let refusal: unknown = null;
  try {
    const mandateCharge = m.provider && m.providerRef ? await cobrAttempt(c, m, now) : undefined;
    await createPayment(await mandateAuth(m.merchantId, m.shopId, m.environment), input, { id: c.paymentId, mandateId: m.id, expiresAt, ...(mandateCharge ? { mandateCharge } : {}) });
  } catch (err) {
    refusal = err;
  }
  if (await db().transaction.findUnique({ where: { id: c.paymentId }, select: { id: true } })) {
    // The payment exists (pending, or already ended by a decline, which its transition mirrored).
    await markSent(c);
    return "sent";
  }
  if (!(refusal instanceof AppError)) throw refusal ?? new Error("the payment was neither made nor refused");
  // A clear refusal before any provider holds a charge (limits, the method turned off): a failed send.
  await db().mandateCharge.updateMany({ where: { id: c.id, status: "sending" }, data: { status: "retrying", lastFailedAt: now, lastError: refusal.code, leaseUntil: null } });
  return "refused";
}

/**
 * Production: the send as an attempt of the due date's CobR at the mandate's PSP. Its number is
 * one more than the earlier sends of this charge that reached the PSP (a payment row naming a
 * CobR attempt); a refused send left none (lib/providers/http-psp/pix-automatico.ts).
 */
async function cobrAttempt(c: Claimed & { paymentId: string }, m: Mandate, now: Date): Promise<NonNullable<CreatePaymentOptions["mandateCharge"]>> {
  const charge = await db().mandateCharge.findUniqueOrThrow({ where: { id: c.id }, select: { paymentIds: true } });
  const earlier = await db().transaction.count({ where: { id: { in: charge.paymentIds.filter((id) => id !== c.paymentId) }, providerRef: { startsWith: "cobr:" } } });
  return {
    provider: m.provider!,
    idRec: m.providerRef!,
    txid: cobrTxid(m.id, c.due_date),
    attempt: earlier + 1,
    dueDate: c.due_date,
    retryDate: isoDayOf(todayAt(now)),
    amountMinor: c.amount,
    description: m.description,
    payerEmail: m.customerEmail,
  };
}

async function markSent(c: { id: string; paymentId: string }): Promise<void> {
  await db().mandateCharge.updateMany({ where: { id: c.id, paymentId: c.paymentId, status: "sending" }, data: { status: "sent", leaseUntil: null } });
}

async function completeEndedMandates(now: Date, opts: Opts): Promise<number> {
  const due = await db().$queryRawUnsafe<{ id: string }[]>(
    `SELECT m.id FROM mandates m
      WHERE m.status = 'active' AND m.end_date < $1::date AND ($3::text IS NULL OR m.merchant_id = $3)
        AND NOT EXISTS (SELECT 1 FROM mandate_charges c WHERE c.mandate_id = m.id AND c.status IN ('scheduled', 'sending', 'sent', 'retrying'))
      LIMIT $2`,
    isoDayOf(todayAt(now)),
    opts.limit ?? 200,
    merchantOf(opts),
  );
  let n = 0;
  for (const m of due) if ((await changeMandate(m.id, "complete", { at: now })).changed) n++;
  return n;
}
