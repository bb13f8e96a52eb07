-- A transfer to an address no top-up was given (or to no address of the network) is recorded
-- too, held (unassigned_address, invalid_address), with no top-up and no merchant. Dropping
-- NOT NULL changes the catalog only (no scan).

-- AlterTable
ALTER TABLE "topup_transfers" ALTER COLUMN "topup_id" DROP NOT NULL,
ALTER COLUMN "merchant_id" DROP NOT NULL;
