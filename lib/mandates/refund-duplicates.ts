// A charge paid twice for one due date: a send failed or expired on our side, a retry was sent
// and paid, and then the earlier send's money arrived too (a late PAID, decisions.md "Late
// payments"). The payer owes one charge, so the payment that completed second is refunded in
// full, by the same use case as POST /payments/{id}/refund (a claim with its freeze, the
// provider's refund, refund.* and claim events), reason `duplicate_mandate_charge`. A refund
// already asked for it (by this job or the merchant) is not asked again; the job's runs may
// overlap, and the refund's own transition refuses more than the payment holds.
// At a PSP holding the recurrence this does not arise (a retry is an attempt of the same CobR,
// made only after the earlier one failed); the sandbox's simulate can make it happen.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { AppError } from "@/lib/platform/errors";
import { refundPayment } from "@/lib/claims/refund-payment";
import { mandateAuth } from "@/lib/mandates/mandate-auth";
import type { Environment } from "@/lib/generated/prisma/enums";

export const DUPLICATE_REFUND_REASON = "duplicate_mandate_charge";

export async function refundDuplicateCharges(opts: { limit?: number; merchantId?: string } = {}): Promise<number> {
  const dups = await db().$queryRawUnsafe<Array<{ id: string; merchant_id: string; shop_id: string; environment: Environment }>>(
    `SELECT t.id, t.merchant_id, t.shop_id, t.environment::text AS environment
       FROM mandate_charges c JOIN transactions t ON t.id = ANY(c.payment_ids)
      WHERE c.status = 'paid' AND c.paid_payment_id IS NOT NULL AND t.id <> c.paid_payment_id AND t.status = 'completed'
        AND NOT EXISTS (SELECT 1 FROM claims k WHERE k.transaction_id = t.id AND k.kind = 'user_dispute')
        AND ($2::text IS NULL OR c.merchant_id = $2)
      LIMIT $1`,
    opts.limit ?? 50,
    opts.merchantId ?? null,
  );
  let refunded = 0;
  for (const d of dups) {
    try {
      await refundPayment(await mandateAuth(d.merchant_id, d.shop_id, d.environment), d.id, { reason: DUPLICATE_REFUND_REASON });
      refunded++;
    } catch (err) {
      // Refused (nothing left to refund: another run got there first; the shop's balance): said, and left.
      if (!(err instanceof AppError)) throw err;
      log.warn({ transactionId: d.id, code: err.code }, "a mandate charge paid twice could not be refunded");
    }
  }
  return refunded;
}
