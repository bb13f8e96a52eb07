-- CreateEnum
CREATE TYPE "TopupStatus" AS ENUM ('awaiting_funds', 'credited', 'expired');

-- CreateTable
CREATE TABLE "topups" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "asset" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "status" "TopupStatus" NOT NULL DEFAULT 'awaiting_funds',
    "min_amount_usd" BIGINT NOT NULL,
    "credited_usd" BIGINT,
    "tx_hash" TEXT,
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "credited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "topups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "topup_addresses" (
    "address" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "topup_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "topup_addresses_pkey" PRIMARY KEY ("address")
);

-- CreateIndex
CREATE INDEX "topups_merchant_id_environment_created_at_idx" ON "topups"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "topups_address_idx" ON "topups"("address");

-- CreateIndex
CREATE UNIQUE INDEX "topups_network_tx_hash_key" ON "topups"("network", "tx_hash");

-- CreateIndex
CREATE UNIQUE INDEX "topup_addresses_topup_id_key" ON "topup_addresses"("topup_id");

-- CreateIndex
CREATE INDEX "topup_addresses_network_topup_id_idx" ON "topup_addresses"("network", "topup_id");
