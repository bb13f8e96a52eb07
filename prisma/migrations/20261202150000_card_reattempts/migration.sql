-- CreateTable
CREATE TABLE "card_reattempts" (
    "id" BIGSERIAL NOT NULL,
    "environment" "Environment" NOT NULL,
    "card_key" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_reattempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "card_reattempts_environment_merchant_id_card_key_at_idx" ON "card_reattempts"("environment", "merchant_id", "card_key", "at");

-- CreateIndex
CREATE INDEX "card_reattempts_at_idx" ON "card_reattempts"("at");
