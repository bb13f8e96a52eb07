// Hosted checkout (4.5): the two modes of POST /checkout/sessions, the session resource (2.5)
// and the buyer's select call. The token endpoints take the session token as their credential.
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { zodToInvalidRequest } from "@/lib/platform/contract/validation";
import { createPaymentBody } from "@/lib/payments/schema";

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_TOKEN = /^cs_[0-9A-Za-z]{24}$/;

const text = () => z.string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") });
const trimmed = (min: number, max: number) => text().trim().min(min, min === 1 ? "must not be empty" : `must be at least ${min} characters`).max(max, `must be at most ${max} characters`);
// "with country code": an optional +, then digits with the usual separators, 8-15 digits (E.164).
const phone = trimmed(1, 40).refine((v) => /^\+?[0-9 ().-]+$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 8 && (v.match(/\d/g)?.length ?? 0) <= 15, "must be a phone number with country code, e.g. +55 11 98765-4321");

export const checkoutCustomer = z.object({
  firstName: trimmed(1, 60),
  lastName: trimmed(1, 60),
  email: text().trim().max(254, "must be at most 254 characters").pipe(z.email("must be a valid email address")),
  phone,
  documentId: trimmed(1, 40).optional(),
});

const country = z.string().trim().min(2).max(3).describe("ISO-2 or ISO-3");

export const selectorSessionBody = z
  .object({
    amount: z.number({ error: (i) => (i.input === undefined ? "is required" : "must be a number") }).positive("must be greater than 0").describe("Major units of `currency`"),
    currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO-4217 code").optional().describe("Presentment currency; default USD"),
    country: country.optional().describe("ISO-2 or ISO-3; filters the method grid"),
    customer: checkoutCustomer,
    merchantOrderId: z.string().max(120).optional(),
    returnUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000).optional(),
    expiresInMinutes: z.number().int().min(5).max(4_320).optional().describe("The payment's expiry once the buyer picks a method, within that rail's maximum (default: the rail's)"),
    allowRetry: z.boolean({ error: "must be true or false" }).optional().describe("Default true: when the session's payment fails or expires within the session's 24 h, the buyer may pay another way through a successor session (same order, amount and customer). false: the failed page offers only the way back to the store."),
    merchantId: z.string().max(40).optional(),
    shopId: z.string().max(40).optional(),
  })
  .meta({ id: "CheckoutSessionSelectorBody", description: "Selector mode: no paymentMethodId; the buyer picks the method on the hosted page." });

/** One-shot mode: POST /payments with hostedCheckout true; `customer` may stand in for userName/userEmail/documentId/userPhone. */
export const oneShotSessionBody = createPaymentBody
  .omit({ hostedCheckout: true })
  .extend({ paymentMethodId: z.string().min(1).max(40), customer: checkoutCustomer.partial().optional() })
  .meta({ id: "CheckoutSessionOneShotBody", description: "One-shot mode: paymentMethodId present; the transaction is created at once." });

export type SelectorSessionInput = z.output<typeof selectorSessionBody>;
export type OneShotSessionInput = z.output<typeof oneShotSessionBody>;
export type CreateSessionInput = ({ mode: "selector" } & SelectorSessionInput) | ({ mode: "one_shot" } & OneShotSessionInput);

export const helpUrl = () => `${config().APP_URL}/api/v1/openapi.json#/paths/~1checkout~1sessions/post`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The mode is decided by `paymentMethodId`; every validation failure is one invalid_request. */
export function parseCreateSessionBody(raw: unknown): CreateSessionInput {
  const body = isObject(raw) ? raw : {};
  if (body.paymentMethodId !== undefined) {
    const r = oneShotSessionBody.safeParse(body);
    if (!r.success) throw zodToInvalidRequest(r.error, body, helpUrl());
    return { mode: "one_shot", ...r.data };
  }
  // An absent customer reports each of its required fields, so the caller sees the whole list.
  const withCustomer = body.customer === undefined ? { ...body, customer: {} } : body;
  const r = selectorSessionBody.safeParse(withCustomer);
  if (!r.success) throw zodToInvalidRequest(r.error, withCustomer, helpUrl());
  return { mode: "selector", ...r.data };
}

export const checkoutSession = z
  .object({
    sessionId: z.string().describe("cs_…; also the token of the hosted page"),
    token: z.string(),
    checkoutUrl: z.string().describe("APP_URL/checkout/<token>"),
    paymentMethodId: z.string().nullable().describe("null until the buyer picks a method"),
    status: z.enum(["awaiting_method", "completed"]),
    amount: z.number().describe("USD"),
    currency: z.literal("USD"),
    inputCurrency: z.string().optional(),
    inputAmount: z.number().optional(),
    country: z.string().nullable().describe("ISO-3"),
    customer: z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string() }),
    customerIp: z.string().nullable(),
    merchantOrderId: z.string().nullable(),
    returnUrl: z.string().nullable(),
    expiresAt: z.string().describe("A successor session keeps the first session's expiry"),
    completedTxId: z.string().nullable(),
    allowRetry: z.boolean(),
    previousSessionId: z.string().nullable().describe("The session whose failed or expired payment this one retries"),
    nextSessionId: z.string().nullable().describe("The session the buyer moved on to after this one's payment failed or expired"),
  })
  .meta({ id: "CheckoutSession" });

export const oneShotSessionCreated = z
  .object({
    sessionId: z.string().describe("The transaction id"),
    transactionId: z.string(),
    checkoutUrl: z.string().describe("APP_URL/c/<txId>?returnUrl=…"),
    paymentMethodId: z.string(),
    status: z.literal("pending"),
    amount: z.number(),
    currency: z.literal("USD"),
    inputCurrency: z.string().optional(),
    inputAmount: z.number().optional(),
    amountLocal: z.number(),
    currencyLocal: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: "CheckoutOneShotCreated" });

export const createCheckoutSessionEndpoint = defineEndpoint({
  method: "POST",
  path: "/checkout/sessions",
  tag: "Hosted checkout",
  summary: "Create a checkout session",
  description:
    "Selector mode (no `paymentMethodId`): a session whose hosted page lets the buyer pick a method; 24 h, single use. One-shot mode (`paymentMethodId`): the transaction is created at once, as POST /payments with `hostedCheckout: true`. Validation failures are `invalid_request` with `details.issues`, `details.missingFields` and `details.helpUrl`. The customer IP is the socket's peer, or behind our own proxies (TRUSTED_PROXIES) the X-Forwarded-For hop the outermost of them wrote, then X-Real-IP.",
  auth: "secret",
  permission: "collect",
  idempotent: true,
  body: z.union([selectorSessionBody, oneShotSessionBody]),
  parseBody: parseCreateSessionBody,
  response: z.union([checkoutSession, oneShotSessionCreated]),
  errors: ["amount_invalid", "amount_out_of_limits", "unsupported_currency", "unsupported_country", "fx_unavailable", "cascade_exhausted", "method_not_enabled_for_shop", "missing_required_fields", "payment_instructions_unavailable", "shop_required", "shop_not_found", "forbidden"],
});

export const sessionTokenParams = z.object({ token: z.string().min(1).max(64) });

export const getCheckoutSessionEndpoint = defineEndpoint({
  method: "GET",
  path: "/checkout/sessions/{token}",
  tag: "Hosted checkout",
  summary: "Retrieve a checkout session",
  description: "The token is the credential (no API key). Unknown and expired (24 h) sessions answer 404 checkout_session_not_found.",
  auth: "none",
  params: sessionTokenParams,
  response: checkoutSession,
  errors: ["checkout_session_not_found"],
});

export const selectMethodBody = z.object({
  paymentMethodId: z.string().trim().min(1).max(40),
  installments: z.coerce.number().int().min(1).max(99).optional().describe("A card rail of Brazil or Mexico: the installments the buyer chose (1: at once), one the shop's plan offers for the session's amount; else 400 installments_unavailable with details.allowed"),
  customer: z
    .object({
      email: text().trim().max(254).pipe(z.email("must be a valid email address")).optional(),
      fullName: z.string().trim().min(1).max(120).optional(),
      documentId: z.string().trim().min(1).max(40).optional().describe("Addition: when the session has none and the method needs one"),
      phone: phone.optional(),
    })
    .optional(),
});
export type SelectMethodInput = z.output<typeof selectMethodBody>;

export const selectMethodResponse = z
  .object({ sessionId: z.string(), transactionId: z.string(), checkoutUrl: z.string(), status: z.literal("pending") })
  .meta({ id: "CheckoutSelection" });

export const selectCheckoutMethodEndpoint = defineEndpoint({
  method: "POST",
  path: "/checkout/sessions/{token}/select",
  tag: "Hosted checkout",
  summary: "Pick the payment method of a session",
  description:
    "Creates the session's one transaction and locks the session to it. A second select answers 409 checkout_session_already_completed with `details.existingTxId`; concurrent selects wait for the first and get the same 409. A rejected method (e.g. missing buyer data) leaves the session open for another try.",
  auth: "none",
  params: sessionTokenParams,
  body: selectMethodBody,
  response: selectMethodResponse,
  errors: ["checkout_session_not_found", "checkout_session_already_completed", "amount_out_of_limits", "cascade_exhausted", "method_not_enabled_for_shop", "missing_required_fields", "unsupported_country", "merchant_suspended", "shop_suspended"],
});
