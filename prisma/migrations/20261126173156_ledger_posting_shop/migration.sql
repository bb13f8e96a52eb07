-- AlterTable
ALTER TABLE "ledger_postings" ADD COLUMN     "shop_id" TEXT;

-- Backfill: a posting of a payment (or of one of its claims, or a deposit's payment) belongs to
-- that payment's shop. Older payout postings carry no reference to their payout, so they stay
-- merchant-level (null), as every shop key saw them before; new ones carry the payout's shop.
UPDATE "ledger_postings" p SET "shop_id" = t."shop_id"
  FROM "transactions" t
 WHERE t."id" = p."transaction_id" AND p."shop_id" IS NULL;
