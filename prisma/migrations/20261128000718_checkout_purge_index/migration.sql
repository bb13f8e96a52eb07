-- The checkout expiry job purges sessions of any status expired more than 30 days ago, every
-- minute. Its only index led with the status, so each purge read every session of the last 30
-- days. The (merchant, environment, created_at) index served no read (sessions are only ever
-- read by id) and cost every new session a write: it goes.

-- DropIndex
DROP INDEX "checkout_sessions_merchant_id_environment_created_at_idx";

-- CreateIndex
CREATE INDEX "checkout_sessions_expires_at_idx" ON "checkout_sessions"("expires_at");
