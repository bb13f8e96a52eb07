// The shape of every event the service emits, one zod schema per type: the envelope of
// decisions.md (Webhooks) with `data.object` typed as the resource GET returns for it. These are
// the one source of the OpenAPI document's `webhooks` section, of `GET /events` items (their
// union) and so of the SDK's typed `verify()`. `satisfies Record<EventType, …>` makes a new event
// type that is emitted without a shape here a type error; e2e/api/webhook-events-schema.test.ts
// checks recorded deliveries of each type against these schemas.
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "@/lib/platform/outbox/emit";
import { transaction } from "@/lib/payments/schema";
import { claim } from "@/lib/claims/schema";
import { payout } from "@/lib/payouts/schema";
import { settlement } from "@/lib/settlements/schema";
import { withdrawal } from "@/lib/withdrawals/schema";
import { subscription } from "@/lib/webhooks/schema";
import { mandate } from "@/lib/mandates/schema";

/** What each event type carries as `data.object`, and when it fires. */
export const EVENT_OBJECTS = {
  "payment.completed": { object: transaction, summary: "A payment was captured: the funds are in the merchant's balance (the canonical signal)" },
  "payment.failed": { object: transaction, summary: "A payment failed, or its buyer let it expire (status failed or expired)" },
  "payment.refunded": { object: transaction, summary: "A completed payment was refunded in full or in part" },
  "payment.captured": { object: transaction, summary: "Back-compat alias of payment.completed, emitted by the sandbox simulator only" },
  "chargeback.created": { object: claim, summary: "A chargeback was opened on a completed payment (the claim, kind chargeback)" },
  "claim.opened": { object: claim, summary: "A claim was opened (refund, chargeback or dispute)" },
  "claim.resolved": { object: claim, summary: "A claim reached its final resolution" },
  "settlement.closed": { object: settlement, summary: "A settlement batch closed and its crypto payout started" },
  "settlement.pdf_ready": { object: settlement, summary: "The PDF receipt of a settlement is ready" },
  "withdrawal.completed": { object: withdrawal, summary: "A withdrawal reached its destination" },
  "withdrawal.failed": { object: withdrawal, summary: "A withdrawal failed and its funds returned to the balance" },
  "payout.completed": { object: payout, summary: "A payout was confirmed by its provider" },
  "payout.failed": { object: payout, summary: "A payout failed (or was returned) and its debit was reversed" },
  "mandate.authorized": { object: mandate, summary: "The payer authorized a recurring PIX mandate in their bank's app: it is active and its charges will be sent" },
  "mandate.rejected": { object: mandate, summary: "The payer refused a recurring PIX mandate" },
  "mandate.cancelled": { object: mandate, summary: "An active mandate was cancelled (cancelledBy payer or merchant): none of its charges is sent again" },
  "mandate.expired": { object: mandate, summary: "A mandate was not authorized by the end of its startDate (São Paulo time)" },
  "webhook.test": { object: subscription, summary: "A test event, sent on request (sandbox, POST /webhooks/{id}/test or the dashboard's Send a test event) to that one subscription, whatever its events list" },
} as const satisfies Record<EventType, { object: z.ZodType; summary: string }>;

/** `payment.completed` -> `PaymentCompletedEvent` (the component's name in the document). */
export const eventComponentName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")}Event`;

function eventSchema<T extends EventType>(type: T) {
  return z
    .object({
      id: z.string().describe("evt_…; also the webhook-id header"),
      type: z.literal(type),
      createdAt: z.string(),
      environment: z.enum(["sandbox", "production"]),
      apiVersion: z.string(),
      data: z.object({
        object: EVENT_OBJECTS[type].object,
        previousStatus: z.string().nullable().describe("The object's status before this change (null when unknown or first)"),
        sequence: z.number().int().describe("1, 2, … among the events of this object: order deliveries by it"),
        lateCompletion: z.literal(true).optional().describe("payment.completed only: the provider reported the payment paid after we had failed or expired it (previousStatus says which); the money is booked as for any completion"),
      }),
    })
    .meta({ id: eventComponentName(type), description: EVENT_OBJECTS[type].summary });
}

type Schemas = { [T in EventType]: ReturnType<typeof eventSchema<T>> };

/** One schema per event type. */
export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((t) => [t, eventSchema(t)])) as unknown as Schemas;

/** Any event: what a webhook delivers and `GET /events` lists, discriminated by `type`. */
export const anyEvent = z
  .discriminatedUnion(
    "type",
    EVENT_TYPES.map((t) => EVENT_SCHEMAS[t]) as unknown as [Schemas[EventType], ...Schemas[EventType][]],
  )
  .meta({ id: "Event" });

export type AnyEvent = z.infer<typeof anyEvent>;
