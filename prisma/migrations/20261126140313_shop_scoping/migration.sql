-- DropIndex
DROP INDEX "idempotency_scope_key";

-- AlterTable
ALTER TABLE "events" ADD COLUMN     "shop_id" TEXT;

-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "shop_id" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "shop_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_scope_key" ON "idempotency_records"("merchant_id", "environment", "shop_id", "idempotency_key", "method", "path");
