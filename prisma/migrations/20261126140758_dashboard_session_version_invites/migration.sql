-- AlterTable
ALTER TABLE "dashboard_users" ADD COLUMN     "invite_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "invite_token_hash" TEXT,
ADD COLUMN     "session_version" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_invite_token_hash_key" ON "dashboard_users"("invite_token_hash");
