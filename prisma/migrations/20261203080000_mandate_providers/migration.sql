-- Recurring PIX mandates held at a PSP (BCB API Pix, Pix Automático): the recurrence's id, its QR
-- code, and when the PSP confirmed it ended.
ALTER TABLE "mandates" ADD COLUMN "provider" TEXT,
ADD COLUMN "provider_ref" TEXT,
ADD COLUMN "provider_code" TEXT,
ADD COLUMN "provider_closed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "mandates_provider_provider_ref_key" ON "mandates"("provider", "provider_ref");

-- The send whose payment paid a charge: another of its sends completing later is refunded.
ALTER TABLE "mandate_charges" ADD COLUMN "paid_payment_id" TEXT;
UPDATE "mandate_charges" SET "paid_payment_id" = "payment_id" WHERE "status" = 'paid';
