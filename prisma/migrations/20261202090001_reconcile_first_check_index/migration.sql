-- Reconciliation's first checks (lib/jobs/reconcile-pending.ts): pending payments never yet
-- asked of their provider, by due time. A run claims these before the backlog of older checks, so
-- a fresh payment's lost notice is found at its first check however many old vouchers are due.
-- Only those rows are in it (a payment enters when created pending, leaves at its first check or
-- when it completes). Built CONCURRENTLY (alone in its migration, so it runs outside a
-- transaction): payments keep being written meanwhile.

-- CreateIndex
CREATE INDEX CONCURRENTLY "transactions_first_check_idx" ON "transactions"("next_check_at") WHERE ((next_check_at IS NOT NULL) AND (checked_at IS NULL));
