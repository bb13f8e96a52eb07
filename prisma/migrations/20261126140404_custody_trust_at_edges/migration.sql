-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "attention_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "topup_transfers" (
    "network" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "topup_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "asset" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "confirmations" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "hold_reason" TEXT,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "topup_transfers_pkey" PRIMARY KEY ("network","tx_hash")
);

-- CreateIndex
CREATE INDEX "topup_transfers_topup_id_idx" ON "topup_transfers"("topup_id");

-- CreateIndex
CREATE INDEX "topup_transfers_status_idx" ON "topup_transfers"("status");
