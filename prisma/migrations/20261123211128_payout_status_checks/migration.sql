-- AlterTable
ALTER TABLE "payouts" ADD COLUMN     "check_after" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "payouts_status_check_after_idx" ON "payouts"("status", "check_after");
