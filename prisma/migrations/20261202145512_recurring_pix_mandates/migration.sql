-- CreateEnum
CREATE TYPE "MandateStatus" AS ENUM ('pending_authorization', 'active', 'rejected', 'expired', 'cancelled', 'completed');

-- CreateEnum
CREATE TYPE "MandatePeriod" AS ENUM ('weekly', 'monthly', 'quarterly', 'yearly');

-- CreateEnum
CREATE TYPE "MandateCanceller" AS ENUM ('payer', 'merchant');

-- CreateEnum
CREATE TYPE "MandateChargeStatus" AS ENUM ('scheduled', 'sending', 'sent', 'paid', 'retrying', 'failed', 'cancelled', 'missed');

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "mandate_id" TEXT;

-- CreateTable
CREATE TABLE "mandates" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "MandateStatus" NOT NULL DEFAULT 'pending_authorization',
    "period" "MandatePeriod" NOT NULL,
    "amount" BIGINT,
    "max_amount" BIGINT,
    "currency" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT NOT NULL,
    "customer_document" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "cancelled_by" "MandateCanceller",
    "authorized_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mandates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mandate_charges" (
    "id" TEXT NOT NULL,
    "mandate_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "due_date" DATE NOT NULL,
    "amount" BIGINT NOT NULL,
    "status" "MandateChargeStatus" NOT NULL DEFAULT 'scheduled',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "payment_id" TEXT,
    "payment_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "lease_until" TIMESTAMPTZ(3),
    "last_failed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mandate_charges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "mandates_token_key" ON "mandates"("token");

-- CreateIndex
CREATE INDEX "mandates_merchant_id_environment_created_at_id_idx" ON "mandates"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mandates_status_start_date_idx" ON "mandates"("status", "start_date");

-- CreateIndex
CREATE UNIQUE INDEX "mandate_charges_payment_id_key" ON "mandate_charges"("payment_id");

-- CreateIndex
CREATE INDEX "mandate_charges_status_due_date_idx" ON "mandate_charges"("status", "due_date");

-- CreateIndex
CREATE UNIQUE INDEX "mandate_charges_mandate_id_due_date_key" ON "mandate_charges"("mandate_id", "due_date");

-- AddForeignKey
ALTER TABLE "mandate_charges" ADD CONSTRAINT "mandate_charges_mandate_id_fkey" FOREIGN KEY ("mandate_id") REFERENCES "mandates"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
