-- The claim's indexes hold only the deliveries still to make: a delivered or failed row leaves
-- them, and the outcome write of a delivered one adds no entry to either. One serves discovery
-- (every subscription's due rows, oldest first), the other a known subscription's own due rows.
DROP INDEX "webhook_deliveries_status_next_attempt_at_idx";

CREATE INDEX "webhook_deliveries_next_attempt_at_idx" ON "webhook_deliveries"("next_attempt_at") WHERE status = 'pending';

CREATE INDEX "webhook_deliveries_subscription_id_next_attempt_at_idx" ON "webhook_deliveries"("subscription_id", "next_attempt_at") WHERE status = 'pending';

-- Room in each page for the lease: a claim changes only locked_until and updated_at (no index
-- holds them), so with free space on the row's page the new version is written there (a HOT
-- update) and no index gains an entry. Inserts fill a page half: bench:webhooks wrote 4.0 KiB of
-- WAL a delivery (19-50 % of row updates HOT) against 4.8 KiB (7-9 %) at 85 % and 4.5 KiB at 70 %,
-- with PostgreSQL at 79-105 µs of CPU a delivery against 98-109 µs; the heap of 20,000 delivered
-- rows took 1,801 pages against 1,376 packed (+31 %). Prisma's schema cannot say this; it lives here.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 50);
