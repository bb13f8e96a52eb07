-- CreateEnum
CREATE TYPE "DepositAccountStatus" AS ENUM ('active', 'disabled');

-- CreateEnum
CREATE TYPE "DepositStatus" AS ENUM ('credited', 'pending', 'rejected');

-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "shop_deposit_methods" (
    "shop_id" TEXT NOT NULL,
    "deposit_method_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shop_deposit_methods_pkey" PRIMARY KEY ("shop_id","deposit_method_id")
);

-- CreateTable
CREATE TABLE "deposit_accounts" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "end_user_ref" TEXT NOT NULL,
    "deposit_method_id" TEXT NOT NULL,
    "method_name" TEXT NOT NULL,
    "clabe" TEXT NOT NULL,
    "bank" TEXT,
    "currency" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT,
    "beneficiary_name" TEXT NOT NULL,
    "beneficiary_email" TEXT,
    "phone" TEXT,
    "document_type" TEXT,
    "document_id" TEXT,
    "customer_country" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "status" "DepositAccountStatus" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deposit_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deposits" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "deposit_account_id" TEXT NOT NULL,
    "transaction_id" TEXT,
    "status" "DepositStatus" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount_usd" BIGINT,
    "fee_usd" BIGINT,
    "net_usd" BIGINT,
    "beneficiary_name" TEXT NOT NULL,
    "beneficiary_email" TEXT,
    "payer_name" TEXT,
    "payer_bank" TEXT,
    "payer_document" TEXT,
    "tracking_key" TEXT NOT NULL,
    "reference" TEXT,
    "reject_reason" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "credited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deposits_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payout_transfers" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payout_swaps" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "from_currency" TEXT NOT NULL,
    "to_currency" TEXT NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "fee_usd" BIGINT NOT NULL,
    "amount_local" BIGINT NOT NULL,
    "rate" DECIMAL(24,10) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "executed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_swaps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payouts" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT,
    "environment" "Environment" NOT NULL,
    "method_id" TEXT NOT NULL,
    "method_name" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "debited" BOOLEAN NOT NULL,
    "status" "PayoutStatus" NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT,
    "dispatched_at" TIMESTAMPTZ(3),
    "recipient" JSONB NOT NULL,
    "failure_reason" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deposit_accounts_clabe_key" ON "deposit_accounts"("clabe");

-- CreateIndex
CREATE INDEX "deposit_accounts_merchant_id_environment_shop_id_created_at_idx" ON "deposit_accounts"("merchant_id", "environment", "shop_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "deposit_accounts_end_user_key" ON "deposit_accounts"("shop_id", "environment", "end_user_ref", "deposit_method_id");

-- CreateIndex
CREATE UNIQUE INDEX "deposits_transaction_id_key" ON "deposits"("transaction_id");

-- CreateIndex
CREATE INDEX "deposits_deposit_account_id_received_at_id_idx" ON "deposits"("deposit_account_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "deposits_deposit_account_id_tracking_key_key" ON "deposits"("deposit_account_id", "tracking_key");

-- CreateIndex
CREATE INDEX "payout_transfers_merchant_id_environment_created_at_idx" ON "payout_transfers"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payout_swaps_merchant_id_environment_created_at_idx" ON "payout_swaps"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "payouts_merchant_id_environment_created_at_id_idx" ON "payouts"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payouts_provider_provider_ref_idx" ON "payouts"("provider", "provider_ref");

-- CreateIndex
CREATE INDEX "payouts_status_dispatched_at_idx" ON "payouts"("status", "dispatched_at");

-- AddForeignKey
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_deposit_account_id_fkey" FOREIGN KEY ("deposit_account_id") REFERENCES "deposit_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
