-- CreateTable
CREATE TABLE "payment_daily_rollups" (
    "merchant_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "time_zone" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" "TransactionStatus" NOT NULL,
    "payments" BIGINT NOT NULL DEFAULT 0,
    "paid_volume_usd" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "payment_daily_rollups_pkey" PRIMARY KEY ("merchant_id","environment","time_zone","day","status","shop_id")
);

-- A merchant's time zone as the fold may use it: the name when PostgreSQL knows it, else NULL
-- (that merchant's days are then read from the hourly rollups; one bad name must never stop
-- the fold for every merchant).
CREATE FUNCTION rollup_time_zone(tz text) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  PERFORM now() AT TIME ZONE tz;
  RETURN tz;
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END $$;

-- The days of the hourly rollups already folded, in each merchant's time zone.
INSERT INTO "payment_daily_rollups" ("merchant_id", "shop_id", "environment", "time_zone", "day", "status", "payments", "paid_volume_usd")
SELECT h."merchant_id", h."shop_id", h."environment", z.tz, (h."hour" AT TIME ZONE z.tz)::date, h."status", sum(h."payments"), sum(h."paid_volume_usd")
  FROM "payment_hourly_rollups" h
  JOIN "merchants" m ON m."id" = h."merchant_id"
  CROSS JOIN LATERAL (SELECT rollup_time_zone(m."time_zone") AS tz) z
 WHERE z.tz IS NOT NULL
 GROUP BY 1, 2, 3, 4, 5, 6;

-- A merchant whose time zone changes gets its days rebuilt from the hourly rollups, under the
-- fold's advisory lock (lib/payments/rollups.ts FOLD_LOCK) so no fold runs half before, half after.
CREATE FUNCTION payment_daily_rollups_rezone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text := rollup_time_zone(NEW."time_zone");
BEGIN
  PERFORM pg_advisory_xact_lock(1819308655);
  DELETE FROM "payment_daily_rollups" WHERE "merchant_id" = NEW."id";
  IF tz IS NOT NULL THEN
    INSERT INTO "payment_daily_rollups" ("merchant_id", "shop_id", "environment", "time_zone", "day", "status", "payments", "paid_volume_usd")
    SELECT h."merchant_id", h."shop_id", h."environment", tz, (h."hour" AT TIME ZONE tz)::date, h."status", sum(h."payments"), sum(h."paid_volume_usd")
      FROM "payment_hourly_rollups" h WHERE h."merchant_id" = NEW."id"
     GROUP BY 1, 2, 3, 4, 5, 6;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "merchants_rezone_daily_rollups" AFTER UPDATE OF "time_zone" ON "merchants"
  FOR EACH ROW WHEN (OLD."time_zone" IS DISTINCT FROM NEW."time_zone") EXECUTE FUNCTION payment_daily_rollups_rezone();

-- The deltas are a queue (every row deleted by the next fold): vacuum it after every few thousand
-- dead rows, so readers' index scans do not walk a fold's worth of dead entries.
ALTER TABLE "payment_rollup_deltas" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000);
