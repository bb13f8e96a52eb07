-- Held deposit notices get a reason: every row so far was held for a CLABE no usable account had
-- (clabe_unknown, the default). pending_mismatch rows keep the pending report's figures beside the
-- notice's own for the operator who decides.
-- AlterTable
ALTER TABLE "held_deposits" ADD COLUMN     "pending_amount" BIGINT,
ADD COLUMN     "pending_currency" TEXT,
ADD COLUMN     "reason" TEXT NOT NULL DEFAULT 'clabe_unknown';
