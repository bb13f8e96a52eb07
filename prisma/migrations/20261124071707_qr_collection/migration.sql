-- CreateEnum
CREATE TYPE "QrEstablishmentStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "QrOrderStatus" AS ENUM ('pending', 'paid', 'expired', 'cancelled');

-- CreateTable
CREATE TABLE "qr_establishments" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "mcc" TEXT NOT NULL,
    "status" "QrEstablishmentStatus" NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "qr_establishments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "qr_orders" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "establishment_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "QrOrderStatus" NOT NULL DEFAULT 'pending',
    "transaction_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount_local" BIGINT NOT NULL,
    "currency_local" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "qr_payload" TEXT NOT NULL,
    "merchant_order_id" TEXT NOT NULL,
    "description" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "qr_orders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "qr_establishments_shop_id_key" ON "qr_establishments"("shop_id");

-- CreateIndex
CREATE UNIQUE INDEX "qr_orders_token_key" ON "qr_orders"("token");

-- CreateIndex
CREATE UNIQUE INDEX "qr_orders_transaction_id_key" ON "qr_orders"("transaction_id");

-- CreateIndex
CREATE INDEX "qr_orders_merchant_id_environment_created_at_idx" ON "qr_orders"("merchant_id", "environment", "created_at" DESC);

-- CreateIndex
CREATE INDEX "qr_orders_status_expires_at_idx" ON "qr_orders"("status", "expires_at");

-- AddForeignKey
ALTER TABLE "qr_orders" ADD CONSTRAINT "qr_orders_establishment_id_fkey" FOREIGN KEY ("establishment_id") REFERENCES "qr_establishments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
