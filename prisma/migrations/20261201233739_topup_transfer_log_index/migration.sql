-- One chain transaction may carry many transfers (an exchange pays withdrawals out in batches):
-- a transfer is (network, tx_hash, log_index), the index the custody notice now carries. Rows
-- recorded before get -1 (the first report of that transfer claims its row, lib/topups/topups.ts);
-- the default goes once the new key is in place. A top-up keeps the log index of the transfer
-- that credited it, so its unique credit key can name one transfer, not one transaction.
-- Adding a column with a constant default rewrites nothing (PostgreSQL 11+).

-- AlterTable
ALTER TABLE "topup_transfers" ADD COLUMN "log_index" INTEGER NOT NULL DEFAULT -1;

-- AlterTable
ALTER TABLE "topups" ADD COLUMN "log_index" INTEGER;
