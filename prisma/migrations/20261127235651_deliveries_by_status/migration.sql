-- GET /webhooks/{id}/deliveries?status=pending|failed: the few deliveries not yet (or never)
-- delivered among a grown subscription's many delivered ones. The list's index walked every
-- delivery of the subscription to find them. This index holds only those rows (a delivery
-- enters it when created pending and leaves it once delivered), in the list's order. Built CONCURRENTLY (alone in
-- its migration, so it runs outside a transaction): deliveries keep being written meanwhile.

-- CreateIndex
CREATE INDEX CONCURRENTLY "webhook_deliveries_subscription_id_status_created_at_id_idx" ON "webhook_deliveries"("subscription_id", "status", "created_at" DESC, "id" DESC) WHERE (status <> 'succeeded');
