-- A transfer credits one top-up at most: unique by (network, tx_hash, log_index), so two top-ups
-- paid by transfers of one transaction may both be credited. Built CONCURRENTLY, alone in its
-- migration: top-ups keep being written meanwhile.

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY "topups_network_tx_hash_log_index_key" ON "topups"("network", "tx_hash", "log_index");
