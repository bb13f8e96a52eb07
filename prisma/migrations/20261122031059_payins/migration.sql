-- CreateEnum
CREATE TYPE "TransactionStatus" AS ENUM ('pending', 'completed', 'failed', 'refunded', 'expired', 'chargeback');

-- CreateEnum
CREATE TYPE "SettlementStatus" AS ENUM ('pending', 'settled');

-- CreateEnum
CREATE TYPE "ClaimKind" AS ENUM ('user_dispute', 'chargeback');

-- CreateEnum
CREATE TYPE "ClaimStatus" AS ENUM ('pending', 'open', 'resolved', 'rejected', 'won', 'lost');

-- CreateTable
CREATE TABLE "shop_payment_methods" (
    "shop_id" TEXT NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shop_payment_methods_pkey" PRIMARY KEY ("shop_id","payment_method_id")
);

-- CreateTable
CREATE TABLE "fx_rates" (
    "quote" TEXT NOT NULL,
    "rate" DECIMAL(24,10) NOT NULL,
    "source" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "fx_rates_pkey" PRIMARY KEY ("quote")
);

-- CreateTable
CREATE TABLE "transactions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "TransactionStatus" NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "amount_local" BIGINT NOT NULL,
    "currency_local" TEXT NOT NULL,
    "fx_rate" DECIMAL(24,10),
    "input_currency" TEXT,
    "input_amount" BIGINT,
    "payment_method_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "rail_name" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "fee_platform" BIGINT NOT NULL,
    "fee_provider" BIGINT NOT NULL,
    "fee_network" BIGINT NOT NULL,
    "reserve_amount" BIGINT NOT NULL,
    "reserve_release_at" TIMESTAMPTZ(3),
    "reserve_released_at" TIMESTAMPTZ(3),
    "settlement_delay" TEXT NOT NULL,
    "settlement_status" "SettlementStatus" NOT NULL DEFAULT 'pending',
    "settle_at" TIMESTAMPTZ(3),
    "refunded_local" BIGINT NOT NULL DEFAULT 0,
    "pending_debited" BIGINT NOT NULL DEFAULT 0,
    "provider" TEXT NOT NULL,
    "provider_ref" TEXT,
    "payment_form_url" TEXT,
    "instructions" JSONB,
    "hosted_checkout" BOOLEAN NOT NULL DEFAULT false,
    "return_url" TEXT,
    "merchant_order_id" TEXT,
    "tag1" TEXT,
    "tag2" TEXT,
    "tag3" TEXT,
    "user_name" TEXT,
    "user_email" TEXT,
    "user_phone" TEXT,
    "user_ip" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_attempts" (
    "id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claims" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "kind" "ClaimKind" NOT NULL,
    "status" "ClaimStatus" NOT NULL,
    "amount_local" BIGINT NOT NULL,
    "amount_usd" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "history" JSONB NOT NULL,
    "resolve_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_postings" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" TEXT NOT NULL,
    "transaction_id" TEXT,
    "claim_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_postings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL,
    "posting_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "account" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_notices" (
    "provider" TEXT NOT NULL,
    "notice_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_notices_pkey" PRIMARY KEY ("provider","notice_id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduled_actions" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "transaction_id" TEXT,
    "claim_id" TEXT,
    "action" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "done_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_created_at_id_idx" ON "transactions"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_status_created_at_idx" ON "transactions"("merchant_id", "environment", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_merchant_order_id_idx" ON "transactions"("merchant_id", "environment", "merchant_order_id");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_payment_method_id_crea_idx" ON "transactions"("merchant_id", "environment", "payment_method_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "transactions_provider_provider_ref_idx" ON "transactions"("provider", "provider_ref");

-- CreateIndex
CREATE INDEX "transactions_status_settlement_status_settle_at_idx" ON "transactions"("status", "settlement_status", "settle_at");

-- CreateIndex
CREATE INDEX "transactions_reserve_release_at_idx" ON "transactions"("reserve_release_at");

-- CreateIndex
CREATE INDEX "payment_attempts_transaction_id_idx" ON "payment_attempts"("transaction_id");

-- CreateIndex
CREATE INDEX "claims_merchant_id_environment_created_at_idx" ON "claims"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "claims_transaction_id_idx" ON "claims"("transaction_id");

-- CreateIndex
CREATE INDEX "claims_status_resolve_at_idx" ON "claims"("status", "resolve_at");

-- CreateIndex
CREATE INDEX "ledger_postings_merchant_id_environment_created_at_idx" ON "ledger_postings"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "ledger_postings_transaction_id_idx" ON "ledger_postings"("transaction_id");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_environment_account_currency_idx" ON "ledger_entries"("merchant_id", "environment", "account", "currency");

-- CreateIndex
CREATE INDEX "ledger_entries_posting_id_idx" ON "ledger_entries"("posting_id");

-- CreateIndex
CREATE INDEX "events_merchant_id_environment_created_at_idx" ON "events"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "scheduled_actions_state_due_at_idx" ON "scheduled_actions"("state", "due_at");

-- AddForeignKey
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claims" ADD CONSTRAINT "claims_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_posting_id_fkey" FOREIGN KEY ("posting_id") REFERENCES "ledger_postings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
