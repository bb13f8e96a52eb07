// POST /providers/{provider}/deposits: a provider reports a transfer to a CLABE it issued. The
// HMAC over the raw body must verify (401 otherwise); the account is found by CLABE among the
// provider's production accounts; crediting is idempotent on the tracking key.
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { verifiedNotice } from "@/lib/providers/verify-notice";
import { parseWith } from "@/lib/http/validation";
import { depositNoticeBody } from "@/lib/deposits/schema";
import { receiveDeposit } from "@/lib/deposits/receive-deposit";

export async function applyDepositNotice(provider: string, rawBody: string, signature: string | null) {
  const n = parseWith(depositNoticeBody, verifiedNotice(provider, rawBody, signature), "body");
  const account = await db().depositAccount.findFirst({ where: { clabe: n.clabe, provider, environment: "production" }, select: { id: true } });
  if (!account) {
    // Acknowledged so the provider stops retrying a notice that can never match; traced.
    log.warn({ provider, clabe: n.clabe, noticeId: n.noticeId }, "deposit notice for an unknown CLABE");
    return { received: true, applied: false };
  }
  const r = await receiveDeposit(account.id, {
    amount: BigInt(n.amount),
    currency: n.currency,
    trackingKey: n.trackingKey,
    payerName: n.payerName ?? null,
    payerBank: n.payerBank ?? null,
    payerDocument: n.payerDocument ?? null,
    reference: n.reference ?? null,
    receivedAt: n.receivedAt ? new Date(n.receivedAt) : new Date(),
    status: n.status,
  });
  await db().providerNotice.createMany({ data: [{ provider, noticeId: n.noticeId }], skipDuplicates: true });
  return { received: true, applied: r.created || r.credited };
}
