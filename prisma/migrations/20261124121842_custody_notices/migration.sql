-- CreateTable
CREATE TABLE "custody_notices" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "custody_notices_pkey" PRIMARY KEY ("id")
);
