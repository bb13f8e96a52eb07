-- The primary key becomes (network, tx_hash, log_index) over the index built by the previous
-- migration (no build under the table's lock; PostgreSQL renames it topup_transfers_pkey).
-- Every transfer recorded from now on names its log index: no default.

-- AlterTable
ALTER TABLE "topup_transfers" DROP CONSTRAINT "topup_transfers_pkey",
ADD CONSTRAINT "topup_transfers_pkey" PRIMARY KEY USING INDEX "topup_transfers_network_tx_hash_log_index_key",
ALTER COLUMN "log_index" DROP DEFAULT;
