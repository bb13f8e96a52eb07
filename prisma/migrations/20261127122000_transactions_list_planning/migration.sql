-- GET /payments of a shop-bound key filters merchant_id, environment and shop_id. The planner
-- multiplied the merchant's and the shop's selectivities as if they were independent, when every
-- shop belongs to one merchant: a merchant holding r of the table's N payments was estimated at
-- about r^2 / N rows of its shop, under the page's 50 for any merchant below sqrt(50 N) payments
-- (22,000 in a 10-million-row table). Expecting a row or two, it read every payment of the
-- merchant through another (merchant_id, environment, ...) index and sorted them, instead of the
-- newest 50 from (merchant_id, environment, created_at, id): 7-21 ms at 12,000 payments, growing
-- with the merchant (lib/payments/list-payments.test.ts). The dependency makes the estimate the
-- merchant's own rows; statistics are only read at ANALYZE, so no write pays for them.
CREATE STATISTICS IF NOT EXISTS transactions_merchant_shop (dependencies) ON merchant_id, shop_id FROM transactions;
-- The other lists a shop-bound key reads filter the same two columns, beside other indexes that
-- lead with merchant_id.
CREATE STATISTICS IF NOT EXISTS payouts_merchant_shop (dependencies) ON merchant_id, shop_id FROM payouts;
CREATE STATISTICS IF NOT EXISTS deposits_merchant_shop (dependencies) ON merchant_id, shop_id FROM deposits;
CREATE STATISTICS IF NOT EXISTS deposit_accounts_merchant_shop (dependencies) ON merchant_id, shop_id FROM deposit_accounts;
CREATE STATISTICS IF NOT EXISTS events_merchant_shop (dependencies) ON merchant_id, shop_id FROM events;
CREATE STATISTICS IF NOT EXISTS qr_orders_merchant_shop (dependencies) ON merchant_id, shop_id FROM qr_orders;
CREATE STATISTICS IF NOT EXISTS checkout_sessions_merchant_shop (dependencies) ON merchant_id, shop_id FROM checkout_sessions;

-- A merchant that grows between two ANALYZEs keeps the estimate of its old size. Autovacuum
-- analyses a table after 10 % of it changed by default (a million payments of a 10-million-row
-- table); 1 % plus 5,000 keeps a growing merchant's statistics within hours, and ANALYZE samples a
-- fixed 30,000 rows whatever the table's size.
ALTER TABLE transactions SET (autovacuum_analyze_scale_factor = 0.01, autovacuum_analyze_threshold = 5000);

ANALYZE transactions, payouts, deposits, deposit_accounts, events, qr_orders, checkout_sessions;
