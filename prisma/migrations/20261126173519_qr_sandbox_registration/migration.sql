-- AlterTable
ALTER TABLE "qr_establishments" ADD COLUMN     "sandbox_only" BOOLEAN NOT NULL DEFAULT false;
