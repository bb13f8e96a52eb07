-- The old credit key (one credit per transaction) refused the second top-up of a batch payout;
-- the previous migration's key replaces it. Dropped CONCURRENTLY, alone in its migration.

-- DropIndex
DROP INDEX CONCURRENTLY "topups_network_tx_hash_key";
