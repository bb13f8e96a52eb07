-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "due_by" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "claim_evidence" (
    "id" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" TEXT NOT NULL,
    "file_name" TEXT,
    "content_type" TEXT,
    "size" INTEGER NOT NULL DEFAULT 0,
    "sha256" TEXT,
    "content" BYTEA,
    "text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_evidence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "claim_evidence_claim_id_created_at_idx" ON "claim_evidence"("claim_id", "created_at");

-- AddForeignKey
ALTER TABLE "claim_evidence" ADD CONSTRAINT "claim_evidence_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Chargebacks opened before this migration: evidence is due 7 days after they opened.
UPDATE "claims" SET "due_by" = "created_at" + interval '7 days' WHERE "kind" = 'chargeback' AND "due_by" IS NULL;
