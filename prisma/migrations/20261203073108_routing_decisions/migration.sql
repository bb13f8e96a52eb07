-- CreateTable
CREATE TABLE "routing_decisions" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "transaction_id" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "propensity" DOUBLE PRECISION NOT NULL,
    "candidates" JSONB NOT NULL,
    "routable" TEXT[],
    "routing_version" INTEGER,
    "rule" INTEGER,
    "reason" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "band" TEXT NOT NULL,
    "brand" TEXT,
    "currency" TEXT NOT NULL,
    "document_type" TEXT,
    "amount_usd" BIGINT NOT NULL,
    "outcome" TEXT NOT NULL,
    "decision" TEXT,
    "cost_usd" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "routing_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "routing_decisions_merchant_id_environment_at_idx" ON "routing_decisions"("merchant_id", "environment", "at");
