-- AlterEnum
ALTER TYPE "DepositAccountStatus" ADD VALUE 'provisioning';

-- AlterTable
ALTER TABLE "deposit_accounts" ADD COLUMN     "provisioning_until" TIMESTAMPTZ(3),
ALTER COLUMN "clabe" DROP NOT NULL;
