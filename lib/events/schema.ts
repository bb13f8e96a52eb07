// GET /events and GET /events/{id}: the events of the last 30 days, as delivered.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";
import { EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { anyEvent } from "@/lib/events/payloads";

export const EVENT_RETENTION_DAYS = 30;

/** Every event, typed by its `type` (lib/events/payloads.ts): what webhooks deliver. */
export const eventBody = anyEvent;

const instant = (what: string) =>
  z
    .string()
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date-time")
    .optional()
    .describe(what);

export const listEventsQuery = z.object({
  ...listQuery(),
  type: z.enum(EVENT_TYPES).optional(),
  createdFrom: instant("Events created at or after this instant"),
  createdTo: instant("Events created before this instant"),
  objectId: z.string().max(64).optional().describe("Only the events of this object (a payment, claim, payout… id)"),
});

export const listEventsEndpoint = defineEndpoint({
  method: "GET",
  path: "/events",
  tag: "Events",
  summary: "List events",
  description: `The events of the last ${EVENT_RETENTION_DAYS} days, newest first, exactly as webhooks deliver them: poll here instead of (or besides) receiving webhooks. Cursor paging (startingAfter / endingBefore = an event id) is stable while events arrive.`,
  auth: "secret",
  permission: "read",
  query: listEventsQuery,
  response: listOf(eventBody),
  errors: ["invalid_request"],
});

export const getEventEndpoint = defineEndpoint({
  method: "GET",
  path: "/events/{id}",
  tag: "Events",
  summary: "Retrieve an event",
  description: `404 event_not_found for an unknown id, another merchant's or environment's, or one older than ${EVENT_RETENTION_DAYS} days.`,
  auth: "secret",
  permission: "read",
  params: z.object({ id: z.string().min(1).max(64) }),
  response: eventBody,
  errors: ["event_not_found"],
});
