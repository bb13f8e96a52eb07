-- AlterTable
ALTER TABLE "ledger_verifications" ADD COLUMN     "checked_totals" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "scheduled_actions" ADD COLUMN     "errors" INTEGER NOT NULL DEFAULT 0;
