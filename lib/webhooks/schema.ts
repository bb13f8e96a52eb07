import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery, pageQuery, paginationSchema } from "@/lib/platform/paging/pagination";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/platform/outbox/emit";

const eventName = z.enum([...SUBSCRIBABLE_EVENT_TYPES, "*"]);

export const subscription = z
  .object({
    id: z.string(),
    url: z.string(),
    managed: z.boolean(),
    events: z.array(z.string()),
    status: z.enum(["enabled", "disabled"]),
    shopId: z.string().nullable().describe("The shop whose events it receives (the shop of the key that created it); null: every shop"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WebhookSubscription" });

export const subscriptionWithSecret = subscription.extend({ secret: z.string().describe("whsec_…; shown only in this answer") }).meta({ id: "WebhookSubscriptionWithSecret" });

export const delivery = z
  .object({
    id: z.string(),
    eventId: z.string(),
    event: z.string(),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable().describe("First 1 KiB"),
    durationMs: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    payload: z.unknown(),
  })
  .meta({ id: "WebhookDelivery" });

export const inboxMessage = z
  .object({ id: z.string(), deliveryId: z.string(), event: z.string(), payload: z.unknown(), receivedAt: z.string() })
  .meta({ id: "InboxMessage" });

export const createWebhookBody = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe("Omit for the managed inbox hosted by the service"),
  events: z.array(eventName).min(1).max(20).describe("Event names of section 6, or * for all"),
  shopId: z.string().max(64).optional().describe("Merchant-wide credentials only: receive this shop's events only (omitted: every shop's). A shop key's subscription is always its shop's"),
});

export const updateWebhookBody = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  events: z.array(eventName).min(1).max(20).optional(),
  status: z.enum(["enabled", "disabled"]).optional(),
});

const idParams = z.object({ id: z.string().min(1).max(64) });
const deliveryParams = z.object({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });
const envelopeOf = <T extends z.ZodType>(item: T) => listOf(item);

export const createWebhookEndpoint = defineEndpoint({
  method: "POST",
  path: "/webhooks",
  tag: "Webhooks",
  summary: "Subscribe to events",
  description: "Your own URL, or (url omitted) the managed inbox. The signing secret is in this answer and in an idempotent replay of it (the answer is never stored; a replay re-reads the subscription).",
  auth: "secret",
  idempotent: true,
  permission: "seeSecrets",
  body: createWebhookBody,
  response: subscriptionWithSecret,
  errors: ["shop_not_found", "forbidden"],
});
export const listWebhooksEndpoint = defineEndpoint({ method: "GET", path: "/webhooks", tag: "Webhooks", summary: "List subscriptions", auth: "secret", permission: "read", query: z.object({ ...listQuery() }), response: envelopeOf(subscription), errors: [] });
export const getWebhookEndpoint = defineEndpoint({ method: "GET", path: "/webhooks/{id}", tag: "Webhooks", summary: "Retrieve a subscription", auth: "secret", permission: "read", params: idParams, response: subscription, errors: ["webhook_not_found"] });
export const updateWebhookEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/webhooks/{id}",
  tag: "Webhooks",
  summary: "Change url, events or status (the secret is kept)",
  auth: "secret",
  permission: "manageWebhooks",
  params: idParams,
  body: updateWebhookBody,
  response: subscription,
  errors: ["webhook_not_found"],
});
export const deleteWebhookEndpoint = defineEndpoint({ method: "DELETE", path: "/webhooks/{id}", tag: "Webhooks", summary: "Delete a subscription", auth: "secret", permission: "manageWebhooks", params: idParams, response: z.object({ id: z.string(), deleted: z.literal(true) }), errors: ["webhook_not_found"] });
export const rotateSecretEndpoint = defineEndpoint({
  method: "POST",
  path: "/webhooks/{id}/rotate-secret",
  tag: "Webhooks",
  summary: "Rotate the signing secret",
  description: "The new secret is in this answer only. For 24 h every delivery is signed with both: in X-Service-Signature v1 with the new secret and v0 with the previous one; in webhook-signature (Standard Webhooks) one `v1,` signature per secret.",
  auth: "secret",
  permission: "seeSecrets",
  params: idParams,
  response: subscriptionWithSecret,
  errors: ["webhook_not_found"],
});
export const listDeliveriesEndpoint = defineEndpoint({
  method: "GET",
  path: "/webhooks/{id}/deliveries",
  tag: "Webhooks",
  summary: "The delivery log, newest first",
  auth: "secret",
  permission: "read",
  params: idParams,
  query: z.object({ ...listQuery(), status: z.enum(["pending", "succeeded", "failed"]).optional(), event: z.string().max(60).optional() }),
  response: envelopeOf(delivery),
  errors: ["webhook_not_found"],
});
export const replayDeliveryEndpoint = defineEndpoint({
  method: "POST",
  path: "/webhooks/{id}/deliveries/{deliveryId}/replay",
  tag: "Webhooks",
  summary: "Deliver again now",
  auth: "secret",
  permission: "manageWebhooks",
  params: deliveryParams,
  response: delivery,
  errors: ["webhook_not_found", "webhook_delivery_not_found"],
});
export const listInboxEndpoint = defineEndpoint({
  method: "GET",
  path: "/webhooks/{id}/inbox",
  tag: "Webhooks",
  summary: "Deliveries received by a managed inbox, newest first",
  auth: "secret",
  permission: "read",
  params: idParams,
  query: z.object({ ...listQuery() }),
  response: envelopeOf(inboxMessage),
  errors: ["webhook_not_found"],
});
export const sendTestEventEndpoint = defineEndpoint({
  method: "POST",
  path: "/webhooks/{id}/test",
  tag: "Webhooks",
  summary: "Send a test event (sandbox)",
  description:
    "Delivers a signed `webhook.test` event (data.object: this subscription) to this subscription only, whatever its events list, through the normal pipeline: signed, retried, in its delivery log and, for a managed inbox, in its inbox. Answers the delivery, pending until the first attempt. A disabled subscription is 400 invalid_request; a production key 400 production_key_refused.",
  auth: "secret",
  permission: "sendTestEvent",
  params: idParams,
  response: delivery,
  errors: ["invalid_request", "webhook_not_found"],
});
