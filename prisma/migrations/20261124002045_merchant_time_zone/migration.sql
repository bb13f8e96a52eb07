-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';
