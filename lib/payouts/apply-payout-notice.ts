// POST /providers/{provider}/payouts: a provider reports a payout's outcome. Signed like every
// provider notice (401 otherwise). PAID completes; REJECTED and REFUNDED fail the payout and
// reverse its debit; a duplicate notice finds the payout no longer processing and changes nothing.
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { parseWith } from "@/lib/http/validation";
import { verifiedNotice } from "@/lib/providers/verify-notice";
import { payoutNoticeBody } from "@/lib/payouts/schema";
import { completePayout, failPayout } from "@/lib/payouts/transitions";

export async function applyPayoutNotice(provider: string, rawBody: string, signature: string | null) {
  const n = parseWith(payoutNoticeBody, verifiedNotice(provider, rawBody, signature), "body");
  const p =
    (await db().payout.findFirst({ where: { provider, providerRef: n.payoutId }, select: { id: true, status: true } })) ??
    (n.reference ? await db().payout.findFirst({ where: { id: n.reference, provider }, select: { id: true, status: true } }) : null);
  if (!p) {
    log.warn({ provider, payoutId: n.payoutId, noticeId: n.noticeId }, "payout notice for an unknown payout");
    return { received: true, applied: false };
  }
  const r = n.status === "PAID" ? await completePayout(p.id) : await failPayout(p.id, n.reason ? `${n.status.toLowerCase()}: ${n.reason}` : n.status.toLowerCase());
  if (!r.changed && p.status !== "processing") log.info({ provider, payout: p.id, status: p.status, notice: n.status }, "payout notice for a payout already final; ignored");
  await db().providerNotice.createMany({ data: [{ provider, noticeId: n.noticeId }], skipDuplicates: true });
  return { received: true, applied: r.changed };
}
