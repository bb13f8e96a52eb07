-- CreateEnum
CREATE TYPE "WithdrawalStatus" AS ENUM ('processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "WithdrawalStatus" NOT NULL DEFAULT 'processing',
    "amount_usd" BIGINT NOT NULL,
    "fee_usd" BIGINT NOT NULL,
    "asset" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "tx_hash" TEXT,
    "custody_ref" TEXT,
    "failure_reason" TEXT,
    "dispatched_at" TIMESTAMPTZ(3),
    "check_after" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "withdrawals_merchant_id_environment_created_at_idx" ON "withdrawals"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "withdrawals_status_check_after_idx" ON "withdrawals"("status", "check_after");
