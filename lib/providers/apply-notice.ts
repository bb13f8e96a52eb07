// POST /providers/{provider}/notifications: a provider tells us a charge changed. The HMAC over
// the raw body must verify (401 otherwise). The status is applied through the same idempotent
// transitions as everything else, so a duplicate notice changes nothing the second time.
import { z } from "zod";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { AppError } from "@/lib/errors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { applyProviderStatus } from "@/lib/providers/apply-status";

const noticeSchema = z.object({
  noticeId: z.string().min(1).max(100),
  chargeId: z.string().min(1).max(200),
  status: z.enum(["pending", "paid", "failed", "expired", "refunded", "chargeback"]),
  amount: z.string().regex(/^\d+$/).optional(),
  currency: z.string().optional(),
});

export async function applyProviderNotice(provider: string, rawBody: string, signature: string | null) {
  if (!isProviderConfigured(provider) || !connectorFor(provider).verifyNotice(rawBody, signature)) {
    throw new AppError("invalid_signature", "The notice is unsigned or its signature does not verify.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new AppError("invalid_json", "The notice body is not valid JSON.");
  }
  const notice = noticeSchema.safeParse(parsed);
  if (!notice.success) throw new AppError("invalid_request", "The notice does not have the expected shape.", { details: { issues: notice.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) } });
  const n = notice.data;
  const tx = await db().transaction.findFirst({ where: { provider, providerRef: n.chargeId }, select: { id: true, amountLocal: true, currencyLocal: true } });
  if (!tx) {
    // Acknowledge, so the provider stops retrying a notice we can never match; keep a trace.
    log.warn({ provider, chargeId: n.chargeId, noticeId: n.noticeId }, "provider notice for an unknown charge");
    return { received: true, applied: false };
  }
  if (n.amount !== undefined && (BigInt(n.amount) !== tx.amountLocal || (n.currency && n.currency !== tx.currencyLocal))) {
    log.error({ provider, transactionId: tx.id, noticeAmount: n.amount, expected: tx.amountLocal.toString() }, "provider notice amount differs from the charge; not applied");
    return { received: true, applied: false };
  }
  const changed = await applyProviderStatus(tx.id, n.status);
  await db().providerNotice.createMany({ data: [{ provider, noticeId: n.noticeId }], skipDuplicates: true });
  return { received: true, applied: changed };
}
