-- AlterTable
ALTER TABLE "checkout_sessions" ADD COLUMN     "allow_retry" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "next_session_id" TEXT,
ADD COLUMN     "previous_session_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_previous_session_id_key" ON "checkout_sessions"("previous_session_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkout_sessions_next_session_id_key" ON "checkout_sessions"("next_session_id");
