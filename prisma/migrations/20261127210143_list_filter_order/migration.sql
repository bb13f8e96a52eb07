-- GET /payments filtered by status or payment method pages in (created_at DESC, id DESC) order.
-- Its indexes ended at created_at, so each page sorted the ties of one instant by id (an
-- incremental sort). With id in the key the page is an ordered walk that stops at its limit.

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_payment_method_id_crea_idx";

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_status_created_at_idx";

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_status_created_at_id_idx" ON "transactions"("merchant_id", "environment", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_payment_method_id_crea_idx" ON "transactions"("merchant_id", "environment", "payment_method_id", "created_at" DESC, "id" DESC);
