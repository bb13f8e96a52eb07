-- GET /me/payout/send?status=…: the list's filtered pages walk (merchant, environment, status,
-- created_at, id) and stop at the page. The planner used to AND the list's index with the jobs'
-- (status, dispatched_at) or (status, check_after) index over all of the merchant's payouts and
-- sort what matched: 2-3 ms at 15,000 payouts, 15 ms at 150,000, for a merchant grown since the
-- last ANALYZE (lib/http/list-plans.test.ts).

-- CreateIndex
CREATE INDEX "payouts_merchant_id_environment_status_created_at_id_idx" ON "payouts"("merchant_id", "environment", "status", "created_at" DESC, "id" DESC);
