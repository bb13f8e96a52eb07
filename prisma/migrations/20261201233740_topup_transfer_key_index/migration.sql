-- The new key of topup_transfers, built CONCURRENTLY (alone in its migration, so outside a
-- transaction): transfers keep being recorded meanwhile. The next migration makes it the primary key.

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY "topup_transfers_network_tx_hash_log_index_key" ON "topup_transfers"("network", "tx_hash", "log_index");
