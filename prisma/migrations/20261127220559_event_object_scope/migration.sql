-- An object's events (lib/events/emit.ts's next sequence, on every payment change; a buyer's result
-- page; GET /events?objectId) are read scoped by merchant and environment. With only (object_id,
-- sequence) to match, the merchant's conditions were a filter, and for a merchant the statistics
-- put at one row the list's (merchant, environment, created_at, id) index looked as cheap: the
-- read walked all of the merchant's events and sorted them (lib/http/list-plans.test.ts). The
-- index now matches the whole read, still led by the object so it never rivals the list.

-- DropIndex
DROP INDEX "events_object_id_sequence_idx";

-- CreateIndex
CREATE INDEX "events_object_id_merchant_id_environment_sequence_idx" ON "events"("object_id", "merchant_id", "environment", "sequence");
