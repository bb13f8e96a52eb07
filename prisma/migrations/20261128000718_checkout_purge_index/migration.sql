-- The checkout expiry job purges sessions of any status expired more than 30 days ago, every
-- minute. Its only index led with the status, so each purge read every session of the last 30
-- days. Built CONCURRENTLY (alone in its migration, so it runs outside a transaction): sessions
-- keep being written while it builds.

-- CreateIndex
CREATE INDEX CONCURRENTLY "checkout_sessions_expires_at_idx" ON "checkout_sessions"("expires_at");
