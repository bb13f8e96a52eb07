import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery, pageQuery, paginationSchema } from "@/lib/platform/paging/pagination";
import { METHOD_SLUGS } from "@/lib/catalog/schema";
import { installmentsShown } from "@/lib/installments/schema";

export const TRANSACTION_STATUSES = ["pending", "completed", "failed", "refunded", "expired", "chargeback"] as const;
export const SIMULATE_ACTIONS = ["paid", "failed", "expired", "refunded", "chargeback", "open_med"] as const;
export const SANDBOX_SIMULATE_HEADER_VALUES = ["paid", "failed", "expired", "chargeback", "slow_payment"] as const;

const optionalText = (max: number) => z.string().max(max).optional();

export const createPaymentBody = z.object({
  // Validated by the use case so that non-numbers get amount_invalid, as the contract says.
  amount: z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: "> 0, major units of `currency`" }),
  currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO-4217 code").optional().describe("Presentment currency; default USD"),
  paymentMethodId: z.string().min(1).max(40).optional().describe("Catalog id; required unless the legacy `paymentMethod` slug is sent"),
  paymentMethod: z.enum(METHOD_SLUGS).optional().describe("Legacy slug, used only without paymentMethodId"),
  userName: optionalText(120),
  userEmail: optionalText(254),
  documentId: optionalText(60),
  country: z.string().min(2).max(3).optional().describe("ISO-2 or ISO-3; default inferred from the method"),
  userPhone: optionalText(40),
  userIp: optionalText(64),
  merchantOrderId: optionalText(120),
  tag1: optionalText(200),
  tag2: optionalText(200),
  tag3: optionalText(200),
  hostedCheckout: z.boolean().optional(),
  returnUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
  expiresInMinutes: z.number().int().min(5).max(4_320).optional().describe("Overrides the rail's default expiry (PIX and card 30 min, SPEI 24 h, vouchers and boleto 3 days, PSE 30 min) within the rail's maximum (see the catalog's `expiry`); beyond it 400 invalid_request with details.max"),
  merchantId: z.string().max(40).optional(),
  shopId: z.string().max(40).optional(),
  installments: z.number().int().min(1).max(99).optional().describe("Card rails of Brazil and Mexico: the number of installments the buyer chose, one the shop's plan offers for this amount (GET /payment-methods?amount=… lists them); 1 or absent: paid at once. Otherwise 400 installments_unavailable with details.allowed"),
});
export type CreatePaymentInput = z.infer<typeof createPaymentBody>;

const money = z.number();
export const fees = z.object({ platform: money, provider: money, network: money, total: money });
export const settlement = z.object({ type: z.string(), delay: z.string(), reserve: money, status: z.enum(["pending", "settled"]) });

/** Fields shared by the create answer and the transaction resource (the `common` of present.ts). */
const paymentFields = {
  amount: money.describe("USD headline"),
  currency: z.literal("USD"),
  inputCurrency: z.string().optional(),
  inputAmount: money.optional(),
  amountLocal: money,
  currencyLocal: z.string(),
  paymentMethodId: z.string(),
  paymentMethod: z.string(),
  paymentMethodName: z.string(),
  logoUrl: z.string(),
  iconUrl: z.string(),
  fees,
  settlement,
  checkoutUrl: z.string().optional(),
  paymentData: z.object({ method: z.string() }),
  merchantOrderId: z.string().nullable(),
  qrOrderId: z.string().optional().describe("The QR order (qro_…) whose money this payment carries; absent on other payments"),
  mandateId: z.string().optional().describe("The recurring PIX mandate (mdt_…) this payment is a charge of; absent on other payments"),
  tag1: z.string().nullable(),
  tag2: z.string().nullable(),
  tag3: z.string().nullable(),
  expiresAt: z.string(),
  installments: installmentsShown.optional().describe("Present when paid in installments: the count, each installment (the last takes the rounding), what the buyer pays in all, the financing fee and who pays it, in the local currency like amountLocal"),
};

export const transaction = z
  .object({
    id: z.string(),
    status: z.enum(TRANSACTION_STATUSES),
    ...paymentFields,
    country: z.string().describe("ISO-3"),
    customer: z.object({ name: z.string().nullable(), email: z.string().nullable() }).describe("The buyer as the payment was created with (userName, userEmail)"),
    refundedAmountLocal: money,
    timestamps: z.object({ created: z.string(), completed: z.string().nullable() }),
    paymentFormUrl: z.string().nullable(),
    provider: z.string(),
    declineCode: z.string().nullable().describe("The unified decline code of a payment failed on a decline (insufficient_funds, suspected_fraud, …), or of a cascade that ended unknown"),
    routingVersion: z.number().int().nullable().describe("The shop's routing version that routed this payment (0: the platform default)"),
    attempts: z.array(
      z.object({
        provider: z.string(),
        outcome: z.string(),
        reason: z.string().nullable(),
        durationMs: z.number(),
        declineCode: z.string().nullable().describe("The unified decline code of a failed attempt"),
        decision: z.enum(["retry_next", "stop", "retry_same_later"]).nullable().describe("What the cascade did after it"),
        routingVersion: z.number().int().nullable(),
        routingReason: z.enum(["rule", "split", "success_rate", "exploration", "fallback"]).nullable(),
      }),
    ),
    lateCompletion: z.literal(true).optional().describe("Present when the provider reported the payment paid after we had failed or expired it (a late payment): it completed all the same"),
  })
  .meta({ id: "Transaction" });

export const createPaymentResponse = z
  .object({
    transactionId: z.string(),
    status: z.literal("pending"),
    ...paymentFields,
    paymentFormUrl: z.string().optional(),
  })
  .meta({ id: "PaymentCreated" });

export const listPaymentsQuery = z.object({
  ...listQuery(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  paymentMethodId: z.string().max(40).optional(),
  country: z.string().max(3).optional(),
  merchantOrderId: z.string().max(120).optional(),
  method: z.enum(METHOD_SLUGS).optional(),
  q: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Search. Order id by prefix (case-insensitive) always; customer e-mail by prefix (case-insensitive) when there is no space; customer name when every word starts a word of the name (case and accents ignored; not for a number or an e-mail); payment id exactly (tx_…); a number (`499`, `499.00`, `499,5`) equals the amount the payment was asked in (`inputAmount` in `inputCurrency`, else the USD `amount`). A payment matches when any of these does; combines with the other filters.",
    ),
});

export const transactionIdParams = z.object({ id: z.string().min(1).max(64) });

const PAYMENT_ERRORS = ["installments_unavailable", "amount_invalid", "amount_out_of_limits", "unsupported_currency", "unsupported_country", "fx_unavailable", "method_not_enabled_for_shop", "missing_required_fields", "cascade_exhausted", "payment_instructions_unavailable"] as const;

function createEndpoint<P extends string>(path: P, legacy: boolean) {
  return defineEndpoint({
    method: "POST",
    path,
    tag: "Payments",
    summary: legacy ? "Create a payment (legacy alias of POST /payments)" : "Create a payment",
    description:
      "Routes the charge through the rail's provider cascade and answers the provider's hosted page (`paymentFormUrl`), or the service's own `checkoutUrl` with `hostedCheckout: true`. Sandbox accepts the `Sandbox-Simulate` header (paid, failed, expired, chargeback, slow_payment) and the `Sandbox-Provider-Behaviour` header, which scripts the simulated providers of the cascade for this request: a comma-separated list of provider steps (accept, decline, timeout, error, garbage; at most 3, in cascade order) and notice modifiers (late_notice, lost_notice, duplicate_notice); a live key sending it gets 400 `production_key_refused`. A cascade that ends with an unknown outcome keeps the payment `pending` and names it in the 422 `cascade_exhausted` details (`transactionId`).",
    auth: "secret",
    permission: "collect",
    idempotent: true,
    body: createPaymentBody,
    response: createPaymentResponse,
    errors: [...PAYMENT_ERRORS, "shop_required", "shop_not_found", "forbidden", "production_key_refused"],
  });
}
export const createPaymentEndpoint = createEndpoint("/payments", false);
export const createTransactionEndpoint = createEndpoint("/transactions", true);

function listEndpoint<P extends string>(path: P, legacy: boolean) {
  return defineEndpoint({
    method: "GET",
    path,
    tag: "Payments",
    summary: legacy ? "List payments (legacy alias)" : "List payments",
    description: "Newest first. `limit` 1-100 (default 50) and `offset` are clamped silently. Cursor paging (`startingAfter` / `endingBefore` = a payment id) is stable while payments arrive and as fast on page 1,000 as on page 1.",
    auth: "secret",
    permission: "read",
    query: listPaymentsQuery,
    response: listOf(transaction),
    errors: ["invalid_request"],
  });
}
export const listPaymentsEndpoint = listEndpoint("/payments", false);
export const listTransactionsEndpoint = listEndpoint("/transactions", true);

function getEndpoint<P extends string>(path: P, legacy: boolean) {
  return defineEndpoint({
    method: "GET",
    path,
    tag: "Payments",
    summary: legacy ? "Retrieve a payment (legacy alias)" : "Retrieve a payment",
    auth: "secret",
    permission: "read",
    params: transactionIdParams,
    response: transaction,
    errors: ["transaction_not_found"],
  });
}
export const getPaymentEndpoint = getEndpoint("/payments/{id}", false);
export const getTransactionEndpoint = getEndpoint("/transactions/{id}", true);

export const simulatePaymentEndpoint = defineEndpoint({
  method: "POST",
  path: "/payments/{id}/simulate",
  tag: "Sandbox",
  summary: "Drive a sandbox payment's outcome",
  description: "Sandbox only. paid, failed, expired apply to pending payments; refunded and chargeback to completed ones; open_med to a completed PIX payment of the last 80 days (a PIX MED claim, kind pix_med, opens and blocks what is left of it; claim.opened).",
  auth: "secret",
  idempotent: true,
  permission: "simulatePayment",
  params: transactionIdParams,
  body: z.object({ action: z.enum(SIMULATE_ACTIONS) }),
  response: z.object({ id: z.string(), status: z.enum(TRANSACTION_STATUSES), eventsFired: z.array(z.string()) }).meta({ id: "SimulationResult" }),
  errors: ["transaction_not_found"],
});
