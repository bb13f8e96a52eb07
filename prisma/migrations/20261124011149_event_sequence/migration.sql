-- AlterTable
ALTER TABLE "events" ADD COLUMN     "object_id" TEXT,
ADD COLUMN     "sequence" INTEGER;

-- CreateIndex
CREATE INDEX "events_merchant_id_environment_object_id_sequence_idx" ON "events"("merchant_id", "environment", "object_id", "sequence");

-- Events written before this migration: their object and their order among that object's events.
UPDATE "events" e SET "object_id" = e."payload"->'data'->'object'->>'id'
WHERE e."object_id" IS NULL;
UPDATE "events" e SET "sequence" = s.n
FROM (SELECT "id", row_number() OVER (PARTITION BY "merchant_id", "environment", "object_id" ORDER BY "created_at", "id") AS n FROM "events" WHERE "object_id" IS NOT NULL) s
WHERE e."id" = s."id" AND e."sequence" IS NULL;
