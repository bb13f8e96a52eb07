// The endpoints of `listen` (the SDK's CLI, like `stripe listen` and `svix listen`): a sandbox
// key opens a stream of the deliveries its listen inbox receives, and reports what the local
// endpoint answered to each one.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { delivery } from "@/lib/webhooks/schema";

const eventList = z
  .string()
  .max(1000)
  .refine((v) => v.split(",").every((t) => t === "*" || (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(t.trim())), `a comma-separated list of: ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}, or *`)
  .optional()
  .describe("Comma-separated event types to stream (default: every type)");

export const listenQuery = z.object({
  events: eventList,
  secret: z.enum(["true", "false"]).optional().describe("true: the ready message carries the listen inbox's signing secret (to verify locally)"),
  after: z.string().max(64).optional().describe("Resume after this message (the last SSE id seen); default: from now"),
});

export const listenWebhooksEndpoint = defineEndpoint({
  method: "GET",
  path: "/webhooks/listen",
  tag: "Webhooks",
  summary: "Stream sandbox deliveries to a local machine (server-sent events)",
  description:
    "Sandbox only. Creates the merchant's listen inbox once (a managed subscription to every event, reused by every later listen, so its secret stays the same) and streams, as server-sent events, each delivery it receives: `event: ready` first (`{subscriptionId, events, secret?}`), then `event: delivery` with `id` = the message id and data `{id, deliveryId, event, body, headers}`, `body` the raw body exactly as signed and `headers` the delivery's own (X-Service-Signature and the Standard Webhooks headers), so a local receiver verifies them as it would in production. Comments keep the connection alive; `event: bye` ends a stream (the server stopping, or after 30 minutes): reconnect with `after`.",
  auth: "secret",
  permission: "listenWebhooks",
  query: listenQuery,
  response: z.string().describe("text/event-stream"),
  responseType: "text/event-stream",
  errors: ["invalid_request"],
});

export const reportListenBody = z.object({
  status: z.number().int().min(0).max(999).nullable().describe("The local endpoint's HTTP status; null when it could not be reached"),
  body: z.string().max(100_000).describe("Its answer (kept: the first 1 KiB), or why the request failed"),
  durationMs: z.number().int().min(0).max(3_600_000),
  forwardedTo: z.string().max(2000).describe("The local URL"),
});

export const reportListenEndpoint = defineEndpoint({
  method: "POST",
  path: "/webhooks/listen/deliveries/{deliveryId}",
  tag: "Webhooks",
  summary: "Record what the local endpoint answered to a forwarded delivery",
  description: "Sandbox only. The delivery log of the listen inbox then shows the local answer: `succeeded` for a 2xx, `failed` otherwise (replay it to forward it again).",
  auth: "secret",
  permission: "listenWebhooks",
  params: z.object({ deliveryId: z.string().min(1).max(64) }),
  body: reportListenBody,
  response: delivery,
  errors: ["webhook_delivery_not_found"],
});
