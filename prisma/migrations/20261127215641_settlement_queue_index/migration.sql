-- The settlement job (lib/jobs/settle-balances.ts) reads completed payments not yet settled, by
-- due date, across merchants. Its index led with the payment status, which the job does not
-- give, and held every payment ever made. The queue now holds only what the job reads:
-- settlement pending with a due date (set at completion). A new payment takes no entry.

-- DropIndex
DROP INDEX "transactions_status_settlement_status_settle_at_idx";

-- CreateIndex
CREATE INDEX "transactions_settle_at_idx" ON "transactions"("settle_at") WHERE (settlement_status = 'pending' AND settle_at IS NOT NULL);
