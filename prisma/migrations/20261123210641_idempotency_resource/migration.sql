-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN     "resource_id" TEXT,
ADD COLUMN     "resource_type" TEXT;
