-- CreateEnum
CREATE TYPE "CheckoutSessionStatus" AS ENUM ('awaiting_method', 'completed', 'expired');

-- CreateTable
CREATE TABLE "checkout_sessions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "CheckoutSessionStatus" NOT NULL DEFAULT 'awaiting_method',
    "amount_usd" BIGINT NOT NULL,
    "input_currency" TEXT,
    "input_amount" BIGINT,
    "country" TEXT,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "document_id" TEXT,
    "customer_ip" TEXT,
    "merchant_order_id" TEXT,
    "return_url" TEXT,
    "claim_tx_id" TEXT,
    "claimed_until" TIMESTAMPTZ(3),
    "completed_tx_id" TEXT,
    "payment_method_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_completed_tx_id_key" ON "checkout_sessions"("completed_tx_id");

-- CreateIndex
CREATE INDEX "checkout_sessions_merchant_id_environment_created_at_idx" ON "checkout_sessions"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "checkout_sessions_status_expires_at_idx" ON "checkout_sessions"("status", "expires_at");
