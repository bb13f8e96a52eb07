-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "expires_in_minutes" INTEGER;

-- CreateIndex
CREATE INDEX "transactions_status_expires_at_idx" ON "transactions"("status", "expires_at");
