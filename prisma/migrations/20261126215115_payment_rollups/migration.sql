-- CreateTable
CREATE TABLE "payment_hourly_rollups" (
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "TransactionStatus" NOT NULL,
    "payments" BIGINT NOT NULL DEFAULT 0,
    "paid_volume_usd" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "payment_hourly_rollups_pkey" PRIMARY KEY ("merchant_id","environment","hour","status","shop_id")
);

-- CreateTable
CREATE TABLE "payment_rollup_deltas" (
    "id" BIGSERIAL NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "status" "TransactionStatus" NOT NULL,
    "payments" INTEGER NOT NULL,
    "paid_volume_usd" BIGINT NOT NULL,

    CONSTRAINT "payment_rollup_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payment_rollup_deltas_merchant_id_environment_hour_idx" ON "payment_rollup_deltas"("merchant_id", "environment", "hour");

-- Every counted change of a payment appends its delta in the same transaction as the change
-- (lib/payments/rollups.ts reads rollups + deltas; the fold-payment-rollups job folds them).
-- Hours are UTC hours, whatever the session's TimeZone.
CREATE FUNCTION payment_rollup_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "payment_rollup_deltas" ("merchant_id", "shop_id", "environment", "hour", "status", "payments", "paid_volume_usd")
    VALUES (OLD."merchant_id", OLD."shop_id", OLD."environment", date_trunc('hour', OLD."created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', OLD."status", -1,
            CASE WHEN OLD."completed_at" IS NOT NULL THEN -OLD."amount_usd" ELSE 0 END);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "payment_rollup_deltas" ("merchant_id", "shop_id", "environment", "hour", "status", "payments", "paid_volume_usd")
    VALUES (NEW."merchant_id", NEW."shop_id", NEW."environment", date_trunc('hour', NEW."created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', NEW."status", 1,
            CASE WHEN NEW."completed_at" IS NOT NULL THEN NEW."amount_usd" ELSE 0 END);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "transactions_rollup_insert_delete" AFTER INSERT OR DELETE ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION payment_rollup_delta();

-- Most updates (reconciliation schedules, settlement marks, refunds' counters) change nothing
-- counted: the WHEN keeps them from calling the function at all.
CREATE TRIGGER "transactions_rollup_update" AFTER UPDATE ON "transactions"
  FOR EACH ROW WHEN (
    OLD."status" IS DISTINCT FROM NEW."status"
    OR (OLD."completed_at" IS NULL) <> (NEW."completed_at" IS NULL)
    OR OLD."amount_usd" <> NEW."amount_usd"
    OR OLD."created_at" <> NEW."created_at"
    OR OLD."merchant_id" <> NEW."merchant_id"
    OR OLD."shop_id" <> NEW."shop_id"
    OR OLD."environment" <> NEW."environment")
  EXECUTE FUNCTION payment_rollup_delta();

-- The history so far.
INSERT INTO "payment_hourly_rollups" ("merchant_id", "shop_id", "environment", "hour", "status", "payments", "paid_volume_usd")
SELECT "merchant_id", "shop_id", "environment", date_trunc('hour', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', "status", count(*),
       coalesce(sum("amount_usd") FILTER (WHERE "completed_at" IS NOT NULL), 0)
  FROM "transactions" GROUP BY 1, 2, 3, 4, 5;
