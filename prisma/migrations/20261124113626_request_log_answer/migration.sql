-- AlterTable
ALTER TABLE "api_request_logs" ADD COLUMN     "answer" JSONB;
