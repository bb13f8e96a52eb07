// Recurring PIX (Pix Automático) mandates, decisions.md "Recurring PIX (mandates)": the mandate the
// payer authorizes once, the charges the merchant schedules on it, and their endpoints.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";

export const MANDATE_STATUSES = ["pending_authorization", "active", "rejected", "expired", "cancelled", "completed"] as const;
export const MANDATE_PERIODS = ["weekly", "monthly", "quarterly", "yearly"] as const;
export const MANDATE_CHARGE_STATUSES = ["scheduled", "sending", "sent", "paid", "retrying", "failed", "cancelled", "missed"] as const;
export const MANDATE_SIMULATE_ACTIONS = ["authorize", "reject", "cancel_by_payer"] as const;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "must be a real calendar date");
const money = (description: string) => z.unknown().optional().meta({ type: "number", description });

export const mandateCustomer = z.object({
  name: z.string().trim().min(1).max(120).describe("The payer's full name (first and last)"),
  email: z.string().trim().max(254).pipe(z.email("must be a valid email address")),
  documentId: z.string().trim().min(11).max(20).describe("The payer's CPF or CNPJ"),
});

export const mandate = z
  .object({
    id: z.string().describe("mdt_…"),
    shopId: z.string(),
    status: z.enum(MANDATE_STATUSES),
    period: z.enum(MANDATE_PERIODS),
    amount: z.number().nullable().describe("A fixed mandate's amount per charge, in `currency`; null on a variable one"),
    maxAmount: z.number().nullable().describe("A variable mandate's ceiling per charge; null on a fixed one"),
    currency: z.literal("BRL"),
    startDate: z.string().describe("YYYY-MM-DD"),
    endDate: z.string().nullable().describe("YYYY-MM-DD; null: until cancelled"),
    customer: mandateCustomer,
    description: z.string(),
    authorizationUrl: z.string().describe("Our hosted page with the QR code the payer scans to authorize the mandate in their bank's app"),
    cancelledBy: z.enum(["payer", "merchant"]).nullable(),
    authorizedAt: z.string().nullable(),
    endedAt: z.string().nullable().describe("When it was rejected, expired, cancelled or completed"),
    createdAt: z.string(),
  })
  .meta({ id: "Mandate" });

export const mandateCharge = z
  .object({
    id: z.string().describe("mdc_…"),
    mandateId: z.string(),
    dueDate: z.string().describe("YYYY-MM-DD: the day the payer's bank debits it"),
    amount: z.number(),
    currency: z.literal("BRL"),
    status: z.enum(MANDATE_CHARGE_STATUSES).describe("scheduled; sending/sent (its payment is with the provider); paid; retrying (a send failed and another is due); failed (no retry left); cancelled (the mandate ended first); missed (its send window closed unsent)"),
    attempts: z.number().int().describe("Sends so far: 1, and up to 3 retries"),
    paymentId: z.string().nullable().describe("The payment (tx_…) of the latest send: an ordinary PIX payment with mandateId"),
    paymentIds: z.array(z.string()).describe("Every send's payment, oldest first"),
    createdAt: z.string(),
  })
  .meta({ id: "MandateCharge" });

const one = z.object({ mandate });
const idParams = z.object({ id: z.string().min(1).max(64) });
const MANDATE_ERRORS = ["mandate_not_found"] as const;

export const createMandateBody = z.object({
  amount: money("A fixed amount per charge, > 0, major units of BRL. Send `amount` or `maxAmount`, not both"),
  maxAmount: money("A variable mandate: each charge names its amount, up to this ceiling"),
  period: z.enum(MANDATE_PERIODS),
  startDate: isoDay.describe("The first day a charge may be due; the payer must authorize by the end of it (São Paulo time) or the mandate expires"),
  endDate: isoDay.optional().describe("The last day a charge may be due; absent: until cancelled"),
  customer: mandateCustomer,
  description: z.string().trim().min(1).max(140).describe("Shown to the payer in their bank's app and on the authorization page"),
});

export const createMandateEndpoint = defineEndpoint({
  method: "POST",
  path: "/mandates",
  tag: "Recurring PIX",
  summary: "Create a recurring PIX mandate (Pix Automático)",
  description:
    "Brazil, BRL. The mandate starts pending_authorization; send the payer to `authorizationUrl` (a QR code to scan in their bank's app). Authorized: active (mandate.authorized), then charges scheduled with POST /mandates/{id}/charges are sent 2 to 10 days before their due date. Not authorized by the end of startDate (São Paulo time): expired (mandate.expired). Production: the recurrence is created first at the PSP that holds recurring PIX (API Pix /rec), whose QR the page shows; a PSP that does not answer or refuses gives 503 service_unavailable with Retry-After, nothing created, safe to retry with the same Idempotency-Key.",
  auth: "secret",
  permission: "collect",
  shop: "required",
  idempotent: true,
  body: createMandateBody,
  response: one,
  successStatus: 201,
  errors: ["invalid_request", "amount_invalid", "missing_required_fields", "method_not_enabled_for_shop", "service_unavailable"],
});

export const listMandatesEndpoint = defineEndpoint({
  method: "GET",
  path: "/mandates",
  tag: "Recurring PIX",
  summary: "List mandates",
  description: "Newest first; offset or cursor paging; filter by status.",
  auth: "secret",
  permission: "read",
  shop: "required",
  query: z.object({ ...listQuery(), status: z.enum(MANDATE_STATUSES).optional() }),
  response: listOf(mandate),
  errors: ["invalid_request"],
});

export const getMandateEndpoint = defineEndpoint({
  method: "GET",
  path: "/mandates/{id}",
  tag: "Recurring PIX",
  summary: "A mandate",
  auth: "secret",
  permission: "read",
  shop: "required",
  params: idParams,
  response: one,
  errors: [...MANDATE_ERRORS],
});

export const cancelMandateEndpoint = defineEndpoint({
  method: "POST",
  path: "/mandates/{id}/cancel",
  tag: "Recurring PIX",
  summary: "Cancel an active mandate (the merchant's cancel)",
  description: "active -> cancelled with cancelledBy merchant (mandate.cancelled); its charges not yet sent are cancelled, none is sent again. Another status: 409 mandate_not_active with details.status.",
  auth: "secret",
  permission: "collect",
  shop: "required",
  params: idParams,
  response: one,
  errors: [...MANDATE_ERRORS, "mandate_not_active"],
});

export const scheduleChargeBody = z.object({
  dueDate: isoDay.describe("The day the payer's bank debits the charge: at least 2 days from today (São Paulo time), within the mandate's start and end dates"),
  amount: money("Major units of BRL. A fixed mandate: its amount (may be left out). A variable one: required, up to maxAmount"),
});

export const scheduleChargeEndpoint = defineEndpoint({
  method: "POST",
  path: "/mandates/{id}/charges",
  tag: "Recurring PIX",
  summary: "Schedule one charge of a mandate",
  description:
    "One charge per mandate and due date (a second: 409 charge_already_scheduled). The mandate job sends it as a PIX payment (tx_… with mandateId, the usual payment.* events) 2 to 10 days before dueDate, once the mandate is active; a send that fails is tried again from the due date on, at most once a day, up to 3 times within 7 days. A variable mandate refuses an amount above its ceiling (422 amount_above_mandate_maximum with details.maxAmount).",
  auth: "secret",
  permission: "collect",
  shop: "required",
  idempotent: true,
  params: idParams,
  body: scheduleChargeBody,
  response: z.object({ charge: mandateCharge }),
  successStatus: 201,
  errors: [...MANDATE_ERRORS, "invalid_request", "amount_invalid", "amount_above_mandate_maximum", "mandate_not_active", "charge_already_scheduled"],
});

export const listChargesEndpoint = defineEndpoint({
  method: "GET",
  path: "/mandates/{id}/charges",
  tag: "Recurring PIX",
  summary: "A mandate's charges, by due date",
  auth: "secret",
  permission: "read",
  shop: "required",
  params: idParams,
  response: z.object({ data: z.array(mandateCharge) }),
  errors: [...MANDATE_ERRORS],
});

export const simulateMandateEndpoint = defineEndpoint({
  method: "POST",
  path: "/mandates/{id}/simulate",
  tag: "Sandbox",
  summary: "The payer's answer to a mandate (sandbox)",
  description: "authorize (pending_authorization -> active, mandate.authorized) and reject (-> rejected, mandate.rejected) stand for the payer's bank app; cancel_by_payer (active -> cancelled, cancelledBy payer, mandate.cancelled). A charge's payment is failed or paid with POST /payments/{id}/simulate.",
  auth: "secret",
  idempotent: true,
  permission: "simulateMandate",
  shop: "required",
  params: idParams,
  body: z.object({ action: z.enum(MANDATE_SIMULATE_ACTIONS) }),
  response: one,
  errors: [...MANDATE_ERRORS, "mandate_not_pending", "mandate_not_active"],
});

/** A PSP's Pix Automático notices (API Pix's webhookrec / webhookcobr callbacks), lib/mandates/apply-pix-notice.ts. */
export const pixNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/pix/{kind}",
  tag: "Providers",
  summary: "Recurring PIX notices from a PSP",
  description:
    "Called by a PSP holding recurring PIX recurrences, not by merchants: API Pix's callbacks `{webhookUrl}/rec` (`{recs: [{idRec, status, …}]}`) and `{webhookUrl}/cobr` (`{cobsr: [{idRec, txid, status, …}]}`), webhookUrl being `/api/v1/providers/{provider}/pix`. Signed `X-Provider-Signature` as the provider's other notices (401 otherwise). The body only points: each recurrence and charge named is read back from the PSP, and what it says is applied once.",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40), kind: z.enum(["rec", "cobr"]) }),
  response: z.object({ received: z.boolean(), applied: z.number().int() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request", "service_unavailable"],
});

/** The parts of RecNotification / CobRNotification read: which recurrences and charges to read back. */
export const pixNoticeBody = z.object({
  recs: z.array(z.object({ idRec: z.string().regex(/^[a-zA-Z0-9]{29}$/) }).passthrough()).max(100).optional(),
  cobsr: z.array(z.object({ txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/) }).passthrough()).max(100).optional(),
});
