-- When reconciliation last asked a pending payment's provider (null: never yet, which the job
-- takes before the backlog). A nullable column without a default: no rewrite of the table.
-- Payments already past their first check (a minute after creation) were asked before this
-- column existed: they get that moment as a lower bound, so the open vouchers of the day of the
-- deploy do not all queue as first checks ahead of the fresh payments.

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "checked_at" TIMESTAMPTZ(3);

UPDATE "transactions" SET "checked_at" = "created_at" + interval '1 minute'
WHERE "next_check_at" IS NOT NULL AND "created_at" < now() - interval '1 minute';
