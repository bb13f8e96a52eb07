-- GET /payments' page must walk (merchant, environment, created_at, id) and stop at the page.
-- A merchant the planner estimates at one row (no statistics yet, or a merchant they never saw)
-- made any narrower index led by (merchant, environment) look cheaper: read all of the merchant's
-- payments through it and sort them (lib/payments/list-payments.test.ts). The search and order-id
-- indexes now hold only rows that have a key (their queries' range and equality conditions imply
-- it; a plain page's do not, so the planner cannot pick them for one), and the settlement index
-- leads with its status (its readers always give one). Rows without an order id or an e-mail no
-- longer take an entry in those indexes.

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_merchant_order_id_idx";

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_search_amount_idx";

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_search_email_key_idx";

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_search_order_key_idx";

-- DropIndex
DROP INDEX "transactions_merchant_id_environment_settlement_status_sett_idx";

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_merchant_order_id_idx" ON "transactions"("merchant_id", "environment", "merchant_order_id") WHERE (merchant_order_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "transactions_settlement_status_merchant_id_environment_sett_idx" ON "transactions"("settlement_status", "merchant_id", "environment", "settlement_batch_id");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_order_key_idx" ON "transactions"("merchant_id", "environment", "search_order_key") WHERE (search_order_key IS NOT NULL);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_email_key_idx" ON "transactions"("merchant_id", "environment", "search_email_key") WHERE (search_email_key IS NOT NULL);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_search_amount_idx" ON "transactions"("merchant_id", "environment", "search_amount") WHERE (search_amount IS NOT NULL);
