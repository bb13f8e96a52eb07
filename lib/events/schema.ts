// GET /events and GET /events/{id}: the events of the last 30 days, as delivered.
import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import { listOf, listQuery } from "@/lib/http/pagination";
import { EVENT_TYPES } from "@/lib/events/emit";

export const EVENT_RETENTION_DAYS = 30;

export const eventBody = z
  .object({
    id: z.string().describe("evt_…"),
    type: z.enum(EVENT_TYPES),
    createdAt: z.string(),
    environment: z.enum(["sandbox", "production"]),
    apiVersion: z.string(),
    data: z.object({
      object: z.record(z.string(), z.unknown()).describe("The resource as GET returns it"),
      previousStatus: z.string().nullable().describe("The object's status before this change (null when unknown or first)"),
      sequence: z.number().int().describe("1, 2, … among the events of this object: order deliveries by it"),
      lateCompletion: z.literal(true).optional().describe("payment.completed only: the provider reported the payment paid after we had failed or expired it (previousStatus says which); the money is booked as for any completion"),
    }),
  })
  .meta({ id: "Event" });

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
