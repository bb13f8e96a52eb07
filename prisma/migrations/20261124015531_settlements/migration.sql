-- CreateEnum
CREATE TYPE "SettlementBatchStatus" AS ENUM ('closed', 'paid', 'failed');

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "settlement_batch_id" TEXT;

-- CreateTable
CREATE TABLE "settlements" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "SettlementBatchStatus" NOT NULL,
    "period_from" TIMESTAMPTZ(3) NOT NULL,
    "period_to" TIMESTAMPTZ(3) NOT NULL,
    "gross_usd" BIGINT NOT NULL,
    "fee_usd" BIGINT NOT NULL,
    "net_usd" BIGINT NOT NULL,
    "transaction_count" INTEGER NOT NULL,
    "breakdown" JSONB NOT NULL,
    "asset" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "tx_hash" TEXT,
    "receipt" BYTEA,
    "receipt_ready" BOOLEAN NOT NULL DEFAULT false,
    "receipt_stale" BOOLEAN NOT NULL DEFAULT true,
    "failure_reason" TEXT,
    "closed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "settlements_merchant_id_environment_created_at_id_idx" ON "settlements"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "settlements_receipt_stale_idx" ON "settlements"("receipt_stale");

-- CreateIndex
CREATE UNIQUE INDEX "settlements_merchant_id_environment_period_from_key" ON "settlements"("merchant_id", "environment", "period_from");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_settlement_status_sett_idx" ON "transactions"("merchant_id", "environment", "settlement_status", "settlement_batch_id");
