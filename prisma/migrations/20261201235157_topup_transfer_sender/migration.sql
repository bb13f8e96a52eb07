-- The sender of each transfer (the custody notice's `from`): a pool address given to another
-- merchant holds a transfer from a sender its previous holder received from (recycled_address).
-- Nullable: rows recorded before have none. No rewrite (a nullable column without a default).

-- AlterTable
ALTER TABLE "topup_transfers" ADD COLUMN     "from_address" TEXT;
