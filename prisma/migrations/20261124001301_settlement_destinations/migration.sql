-- CreateTable
CREATE TABLE "settlement_destinations" (
    "merchant_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "asset" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settlement_destinations_pkey" PRIMARY KEY ("merchant_id","environment")
);
