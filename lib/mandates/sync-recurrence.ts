// What a mandate's PSP says of its recurrence, applied to the mandate (production mandates only,
// lib/mandates/open-recurrence.ts). A PSP's notice only points at a recurrence: its status is
// read back from the PSP (GET /rec/{idRec}), so a forged or replayed body can claim nothing, and
// applying the same status twice changes nothing (changeMandate is idempotent and non-strict).
//   APROVADA -> authorize; REJEITADA -> reject; EXPIRADA -> expire;
//   CANCELADA -> cancelByPayer / cancelByMerchant (who asked: encerramento.cancelamento.solicitante),
//   or, while ours was still pending, reject (the payer's side refused it before authorizing).
// The mandate job also reads back the recurrences still pending (a lost notice) and closes at the
// PSP the recurrences of mandates that ended on our side (closeEndedRecurrences).
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { mandateConnectorFor } from "@/lib/providers/mandates";
import { changeMandate, type MandateChange } from "@/lib/mandates/transitions";
import type { Mandate } from "@/lib/generated/prisma/client";
import type { RecurrenceState } from "@/lib/providers/types";

function changeFor(m: Mandate, s: RecurrenceState): MandateChange | null {
  switch (s.status) {
    case "authorized":
      return "authorize";
    case "rejected":
      return "reject";
    case "expired":
      return "expire";
    case "cancelled":
      if (m.status === "pending_authorization") return "reject";
      return s.by === "payer" ? "cancelByPayer" : "cancelByMerchant";
    default:
      return null;
  }
}

/** Reads the recurrence of mandate `m` back from its PSP and applies it; true when the mandate changed. */
export async function syncRecurrence(m: Mandate, at = new Date()): Promise<boolean> {
  if (!m.provider || !m.providerRef) return false;
  const r = await mandateConnectorFor(m.provider).readRecurrence(m.providerRef);
  if (r.kind !== "found") {
    if (r.kind === "unknown") log.warn({ mandateId: m.id, provider: m.provider, reason: r.reason }, "the mandate's recurrence could not be read back; asked again later");
    return false;
  }
  const change = changeFor(m, r);
  // An ended recurrence is closed at the PSP already: nothing to cancel there later.
  if (r.status !== "pending" && r.status !== "authorized") await db().mandate.updateMany({ where: { id: m.id, providerClosedAt: null }, data: { providerClosedAt: at } });
  return change ? (await changeMandate(m.id, change, { at })).changed : false;
}

/** A PSP's notice naming recurrences (idRec): each of ours is read back and applied. */
export async function syncNoticedRecurrences(provider: string, idRecs: string[]): Promise<number> {
  const mandates = await db().mandate.findMany({ where: { provider, providerRef: { in: idRecs.slice(0, 100) } } });
  let changed = 0;
  for (const m of mandates) if (await syncRecurrence(m)) changed++;
  return changed;
}

/** The job's pass: pending production mandates read back (a notice the PSP sent may be lost). */
export async function syncPendingRecurrences(now: Date, opts: { limit?: number; merchantId?: string } = {}): Promise<number> {
  const pending = await db().mandate.findMany({
    where: { status: "pending_authorization", provider: { not: null }, ...(opts.merchantId ? { merchantId: opts.merchantId } : {}) },
    orderBy: { updatedAt: "asc" },
    take: opts.limit ?? 50,
  });
  let changed = 0;
  for (const m of pending) if (await syncRecurrence(m, now)) changed++;
  return changed;
}

/**
 * The job's pass: a mandate that ended on our side (the merchant's cancel, expiry, completion)
 * has its recurrence cancelled at the PSP (PATCH /rec/{idRec} CANCELADA), so the payer's bank app
 * no longer shows it; until the PSP confirms, each run asks again. No charge is sent meanwhile:
 * sends read our mandate, never the PSP's.
 */
export async function closeEndedRecurrences(opts: { limit?: number; merchantId?: string } = {}): Promise<number> {
  const ended = await db().mandate.findMany({
    where: { status: { in: ["cancelled", "expired", "completed", "rejected"] }, provider: { not: null }, providerClosedAt: null, ...(opts.merchantId ? { merchantId: opts.merchantId } : {}) },
    take: opts.limit ?? 50,
  });
  let closed = 0;
  for (const m of ended) if (await closeAtProvider(m)) closed++;
  return closed;
}

/** Cancels the recurrence of ended mandate `m` at its PSP; false (logged) when the PSP did not confirm. */
export async function closeAtProvider(m: Mandate): Promise<boolean> {
  if (!m.provider || !m.providerRef || m.providerClosedAt) return false;
  const r = await mandateConnectorFor(m.provider).cancelRecurrence(m.providerRef);
  if (r.kind === "cancelled") {
    await db().mandate.updateMany({ where: { id: m.id, providerClosedAt: null }, data: { providerClosedAt: new Date() } });
    return true;
  }
  log.warn({ mandateId: m.id, provider: m.provider, outcome: r.kind, reason: r.reason }, "the mandate's recurrence could not be cancelled at its PSP; asked again at the mandate job's next run");
  return false;
}
