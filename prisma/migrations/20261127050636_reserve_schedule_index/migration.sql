-- Reserve indexes hold only reserves not yet released: the balance's schedule (per merchant) and the
-- release job (oldest first) read the held reserves, never every payment that ever had one.
-- DropIndex
DROP INDEX "transactions_reserve_release_at_idx";

-- CreateIndex
CREATE INDEX "transactions_reserve_release_at_idx" ON "transactions"("reserve_release_at") WHERE (reserve_release_at IS NOT NULL AND reserve_released_at IS NULL);

-- CreateIndex
CREATE INDEX "transactions_merchant_id_environment_reserve_release_at_res_idx" ON "transactions"("merchant_id", "environment", "reserve_release_at", "reserve_amount") WHERE (reserve_release_at IS NOT NULL AND reserve_released_at IS NULL AND reserve_amount > 0);
