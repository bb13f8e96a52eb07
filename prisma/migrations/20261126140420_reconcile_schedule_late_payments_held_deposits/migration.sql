-- AlterTable
ALTER TABLE "deposit_accounts" ADD COLUMN     "next_check_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "late_completion" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "next_check_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "held_deposits" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "clabe" TEXT NOT NULL,
    "notice_id" TEXT NOT NULL,
    "notice" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "applied_at" TIMESTAMPTZ(3),
    "deposit_id" TEXT,

    CONSTRAINT "held_deposits_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "held_deposits_clabe_applied_at_idx" ON "held_deposits"("clabe", "applied_at");

-- CreateIndex
CREATE UNIQUE INDEX "held_deposits_provider_notice_id_key" ON "held_deposits"("provider", "notice_id");

-- CreateIndex
CREATE INDEX "deposit_accounts_status_next_check_at_idx" ON "deposit_accounts"("status", "next_check_at");

-- CreateIndex
CREATE INDEX "transactions_next_check_at_idx" ON "transactions"("next_check_at");

-- Pending production payments open today: asked at once by the new reconciliation schedule.
UPDATE "transactions" SET "next_check_at" = now() WHERE "status" = 'pending' AND "environment" = 'production';
