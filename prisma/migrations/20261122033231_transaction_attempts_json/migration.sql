-- DropForeignKey
ALTER TABLE "payment_attempts" DROP CONSTRAINT "payment_attempts_transaction_id_fkey";

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "attempts" JSONB NOT NULL DEFAULT '[]';

-- DropTable
DROP TABLE "payment_attempts";
