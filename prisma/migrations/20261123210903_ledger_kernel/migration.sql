-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "frozen_from_pending" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateTable
CREATE TABLE "ledger_balances" (
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "account" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "entries" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_balances_pkey" PRIMARY KEY ("merchant_id","environment","account","currency")
);

-- CreateTable
CREATE TABLE "ledger_daily_totals" (
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "account" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "amount" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ledger_daily_totals_pkey" PRIMARY KEY ("merchant_id","environment","account","currency","day")
);

-- CreateTable
CREATE TABLE "ledger_verifications" (
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "checked_seq" BIGINT NOT NULL DEFAULT 0,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "checked_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),

    CONSTRAINT "ledger_verifications_pkey" PRIMARY KEY ("merchant_id","environment")
);

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_environment_seq_idx" ON "ledger_entries"("merchant_id", "environment", "seq");

-- Backfill: the running totals and the daily totals from the entries written so far, and the
-- source bucket of every freeze (its posting's `pending` leg) on its claim.
INSERT INTO "ledger_balances" ("merchant_id", "environment", "account", "currency", "balance", "entries")
SELECT "merchant_id", "environment", "account", "currency", SUM("amount"), COUNT(*)
FROM "ledger_entries" GROUP BY 1, 2, 3, 4;

INSERT INTO "ledger_daily_totals" ("merchant_id", "environment", "account", "currency", "day", "amount")
SELECT "merchant_id", "environment", "account", "currency", ("created_at" AT TIME ZONE 'UTC')::date, SUM("amount")
FROM "ledger_entries"
WHERE "account" IN ('provider_clearing', 'platform_fees', 'flat_fees', 'provider_fees', 'network_fees', 'chargeback_fees')
GROUP BY 1, 2, 3, 4, 5;

UPDATE "claims" c SET "frozen_from_pending" = f."from_pending"
FROM (
  SELECT p."claim_id", -SUM(e."amount") AS "from_pending"
  FROM "ledger_postings" p JOIN "ledger_entries" e ON e."posting_id" = p."id"
  WHERE p."kind" IN ('refund_freeze', 'chargeback_freeze') AND e."account" = 'pending' AND p."claim_id" IS NOT NULL
  GROUP BY p."claim_id"
) f
WHERE c."id" = f."claim_id";
