-- CreateTable
CREATE TABLE "payment_totals" (
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "status" "TransactionStatus" NOT NULL,
    "payments" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "payment_totals_pkey" PRIMARY KEY ("merchant_id","environment","status","shop_id")
);

-- The totals follow the hourly rollups, whoever writes them (the fold, a merchant's deletion):
-- each written hourly row adds what it changed.
CREATE FUNCTION payment_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."payments" <> 0 THEN
    INSERT INTO "payment_totals" AS t ("merchant_id", "shop_id", "environment", "status", "payments")
    VALUES (OLD."merchant_id", OLD."shop_id", OLD."environment", OLD."status", -OLD."payments")
    ON CONFLICT ("merchant_id", "environment", "status", "shop_id") DO UPDATE SET "payments" = t."payments" + excluded."payments";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."payments" <> 0 THEN
    INSERT INTO "payment_totals" AS t ("merchant_id", "shop_id", "environment", "status", "payments")
    VALUES (NEW."merchant_id", NEW."shop_id", NEW."environment", NEW."status", NEW."payments")
    ON CONFLICT ("merchant_id", "environment", "status", "shop_id") DO UPDATE SET "payments" = t."payments" + excluded."payments";
  END IF;
  RETURN NULL;
END $$;

-- Under the fold's advisory lock (lib/payments/rollups.ts FOLD_LOCK): no fold writes hourly rows
-- between the trigger's start and the totals of what was already folded.
SELECT pg_advisory_lock(1819308655);
CREATE TRIGGER "payment_hourly_rollups_totals" AFTER INSERT OR UPDATE OR DELETE ON "payment_hourly_rollups"
  FOR EACH ROW EXECUTE FUNCTION payment_totals_follow();
INSERT INTO "payment_totals" ("merchant_id", "shop_id", "environment", "status", "payments")
SELECT "merchant_id", "shop_id", "environment", "status", sum("payments") FROM "payment_hourly_rollups" GROUP BY 1, 2, 3, 4;
SELECT pg_advisory_unlock(1819308655);
