// POST /providers/{provider}/notifications: a provider tells us a charge changed. Through the
// notice pipeline (verify, parse, record once, dispatch); the status is applied through the same
// idempotent transitions as everything else, with the notice id recorded in their transaction.
//
// The charge is found by the provider's id, or else by our reference when this provider was
// one of the transaction's attempts: a charge attempt that timed out may have been made all the
// same, and the cascade moved on to the next provider (decisions.md); its late notice still
// completes the same transaction, once (completion is pending -> completed, so a second paid
// notice from either provider changes nothing).
import { z } from "zod";
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { receiveNotice } from "@/lib/providers/notice-pipeline";
import { openMed } from "@/lib/claims/pix-med";

const noticeSchema = z.object({
  noticeId: z.string().min(1).max(100),
  chargeId: z.string().min(1).max(200),
  reference: z.string().max(64).optional(),
  // `med`: the payer's bank opened a PIX MED claim (an infraction report) on the paid charge, for
  // `medAmount` (minor units; default all of it).
  status: z.enum(["pending", "paid", "failed", "expired", "refunded", "chargeback", "med"]),
  amount: z.string().regex(/^\d+$/).optional(),
  currency: z.string().optional(),
  medAmount: z.string().regex(/^\d{1,18}$/).optional(),
});

const select = { id: true, amountLocal: true, currencyLocal: true, provider: true, attempts: true, environment: true } as const;

async function findCharge(provider: string, chargeId: string, reference: string | undefined) {
  const byRef = await db().transaction.findFirst({ where: { provider, providerRef: chargeId }, select });
  if (byRef || !reference) return byRef;
  const t = await db().transaction.findUnique({ where: { id: reference }, select });
  const attempts = Array.isArray(t?.attempts) ? (t!.attempts as Array<{ provider?: string }>) : [];
  // No attempts recorded: the process stopped mid-cascade; a signed notice quoting our id is
  // that provider's charge all the same.
  const attempted = attempts.length === 0 || attempts.some((a) => a?.provider === provider);
  return t && t.environment === "production" && attempted ? t : null;
}

export async function applyProviderNotice(provider: string, rawBody: string, signature: string | null) {
  return receiveNotice(provider, rawBody, signature, noticeSchema, async (n, record) => {
    const tx = await findCharge(provider, n.chargeId, n.reference);
    if (!tx) {
      // Acknowledge, so the provider stops retrying a notice we can never match; keep a trace.
      log.warn({ provider, chargeId: n.chargeId, noticeId: n.noticeId }, "provider notice for an unknown charge");
      return false;
    }
    if (n.amount !== undefined && (BigInt(n.amount) !== tx.amountLocal || (n.currency && n.currency !== tx.currencyLocal))) {
      log.error({ provider, transactionId: tx.id, noticeAmount: n.amount, expected: tx.amountLocal.toString() }, "provider notice amount differs from the charge; not applied");
      return false;
    }
    // A status other than paid from an attempt the cascade left behind says nothing of the charge we kept.
    if (tx.provider !== provider && n.status !== "paid") {
      log.info({ provider, transactionId: tx.id, status: n.status }, "notice from an abandoned charge attempt; only paid applies");
      return false;
    }
    if (n.status === "med") {
      const r = await openMed(tx.id, { inTransaction: record, reason: "provider_med", ...(n.medAmount !== undefined ? { amountLocal: BigInt(n.medAmount) } : {}) });
      // Refused (not PIX, older than 80 days, nothing left, already open): acknowledged and kept
      // in the log, so the provider stops sending what can never apply.
      if (r.refusal) log.warn({ provider, transactionId: tx.id, noticeId: n.noticeId, refusal: r.refusal }, "PIX MED notice not applied");
      return r.opened !== null;
    }
    // A paid charge is the route from now on (an abandoned attempt's included): refunds and
    // chargebacks go to the provider that holds the money.
    return applyProviderStatus(tx.id, n.status, { inTransaction: record, ...(n.status === "paid" ? { paidBy: { provider, providerRef: n.chargeId } } : {}) });
  });
}
