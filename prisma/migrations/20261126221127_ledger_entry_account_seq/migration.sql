-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_environment_account_seq_idx" ON "ledger_entries"("merchant_id", "environment", "account", "seq" DESC);
