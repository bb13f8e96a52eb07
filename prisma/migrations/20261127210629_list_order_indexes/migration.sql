-- The scoped lists (claims, events, QR orders, top-ups, withdrawals, a subscription's webhook
-- deliveries) page in (created_at DESC, id DESC) order (lib/http/pagination.ts), but their indexes
-- ended at created_at. For a merchant the statistics had not seen (estimated at one row), a full
-- sort looked cheaper than walking the index and sorting ties, so every page read all of that
-- merchant's rows and sorted them: 2-9 ms at 15,000 rows, 23-76 ms at 150,000, and a shop-bound
-- claims page 34 ms even for a merchant the statistics knew. With id in the key each page is an
-- ordered walk that stops at its limit (0.01-0.19 ms). Each new index replaces the old one.
-- Events' object index no longer leads with the merchant: narrower than the list's, it won the
-- list's page for such a merchant (read everything, sort). Object ids are unique across merchants.

-- DropIndex
DROP INDEX "claims_merchant_id_environment_created_at_idx";

-- DropIndex
DROP INDEX "events_merchant_id_environment_created_at_idx";

-- DropIndex
DROP INDEX "events_merchant_id_environment_object_id_sequence_idx";

-- DropIndex
DROP INDEX "qr_orders_merchant_id_environment_created_at_idx";

-- DropIndex
DROP INDEX "topups_merchant_id_environment_created_at_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_subscription_id_created_at_idx";

-- DropIndex
DROP INDEX "withdrawals_merchant_id_environment_created_at_idx";

-- CreateIndex
CREATE INDEX "claims_merchant_id_environment_created_at_id_idx" ON "claims"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "events_merchant_id_environment_created_at_id_idx" ON "events"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "events_object_id_sequence_idx" ON "events"("object_id", "sequence");

-- CreateIndex
CREATE INDEX "qr_orders_merchant_id_environment_created_at_id_idx" ON "qr_orders"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "topups_merchant_id_environment_created_at_id_idx" ON "topups"("merchant_id", "environment", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscription_id_created_at_id_idx" ON "webhook_deliveries"("subscription_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "withdrawals_merchant_id_environment_created_at_id_idx" ON "withdrawals"("merchant_id", "environment", "created_at" DESC, "id" DESC);
