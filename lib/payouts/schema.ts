// Payouts (API reference 2.9-2.11, 3.3, 4.7; decisions.md Payouts): shapes and endpoints.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery, pageQuery, paginationSchema } from "@/lib/platform/paging/pagination";

export const PAYOUT_STATUSES = ["processing", "completed", "failed"] as const;
export const PAYOUT_SIMULATE_ACTIONS = ["completed", "paid", "failed", "rejected", "refunded", "returned", "processing"] as const;

export const payout = z
  .object({
    id: z.string().describe("po_…"),
    methodId: z.string(),
    methodName: z.string(),
    method: z.string().describe("Rail slug: spei, pix, bank_transfer"),
    country: z.string().describe("ISO-3"),
    currency: z.string(),
    amount: z.number().describe("In the method's currency"),
    status: z.enum(PAYOUT_STATUSES),
    provider: z.string().describe("sandbox, simulated, or the provider's code"),
    providerRef: z.string().nullable(),
    recipient: z.object({ name: z.string(), accountLast4: z.string() }).describe("What is safe to echo of the beneficiary"),
    environment: z.enum(["sandbox", "production"]),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    timestamps: z.object({ created: z.string(), completed: z.string().nullable(), failed: z.string().nullable() }),
  })
  .meta({ id: "Payout" });

export const balanceEntry = z.object({ currency: z.string(), available: z.number(), pending: z.number(), reserved: z.number().describe("Held by processing payouts") });

export const payoutBalance = z
  .object({ merchantId: z.string(), environment: z.enum(["sandbox", "production"]), balances: z.array(balanceEntry), transferableFromPayinUsd: z.number() })
  .meta({ id: "PayoutBalance" });

export const payoutMethod = z
  .object({
    id: z.string(),
    name: z.string(),
    currency: z.string(),
    country: z.string(),
    rail: z.string(),
    minUsd: z.number(),
    maxUsd: z.number(),
    logoUrl: z.string(),
    iconUrl: z.string(),
    funded: z.boolean().describe("A balance exists in the method's currency"),
    currencyAvailable: z.number(),
  })
  .meta({ id: "PayoutMethod" });

const amountField = (what: string) => z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: what });

export const recipientSchema = z
  .object({
    name: z.string().max(200).optional(),
    account: z.string().max(100).optional(),
    documentId: z.string().max(60).optional(),
    documentType: z.string().max(20).optional(),
    accountType: z.string().max(20).optional(),
    bankCode: z.string().max(20).optional(),
    phone: z.string().max(40).optional(),
    email: z.string().max(254).optional(),
  })
  .describe("All rails: name, account, documentId. SPEI: 18-digit CLABE, bankCode, documentType RFC|CURP. PIX: the key in account, accountType CPF|CNPJ|EMAIL|PHONE|EVP, documentType CPF|CNPJ. Bank transfer: account, bankCode, accountType CHECKING|SAVINGS.");
export type Recipient = z.infer<typeof recipientSchema>;

export const sendBody = z.object({
  methodId: z.string().min(1).max(60),
  amount: amountField("> 0, in the method's currency, at most its available balance"),
  // Checked by the use case per rail, so every problem is reported together.
  recipient: recipientSchema.optional(),
});
export type SendInput = z.infer<typeof sendBody>;

export const payoutIdParams = z.object({ id: z.string().min(1).max(64) });

export const listMethodsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/methods",
  tag: "Payouts",
  summary: "Payout methods",
  description: "Sandbox lists the synthetic sbx_po_* rails first.",
  auth: "secret",
  permission: "read",
  response: z.object({ items: z.array(payoutMethod) }),
  errors: [],
});

export const listCurrenciesEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/currencies",
  tag: "Payouts",
  summary: "Payout currencies and their rails",
  description: "Sorted by currency, USD first.",
  auth: "secret",
  permission: "read",
  response: z.object({
    currencies: z.array(z.object({ currency: z.string(), country: z.string().nullable(), funded: z.boolean(), available: z.number(), rails: z.array(z.object({ id: z.string(), rail: z.string(), country: z.string() })) })),
  }),
  errors: [],
});

export const getPayoutBalanceEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/balance",
  tag: "Payouts",
  summary: "Payout balance",
  auth: "secret",
  permission: "read",
  response: payoutBalance,
  errors: [],
});

export const fundSandboxEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/fund-sandbox",
  tag: "Sandbox",
  summary: "Credit the sandbox payout balance with test money",
  description: "Sandbox only; a live key gets 400 fund_sandbox_only.",
  auth: "secret",
  permission: "fundSandbox",
  idempotent: true,
  body: z.object({ currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO-4217 code"), amount: amountField("> 0, major units of `currency`") }),
  response: z.object({ currency: z.string(), amount: z.number(), balances: z.array(balanceEntry) }),
  errors: ["fund_sandbox_only", "unsupported_currency", "amount_invalid"],
});

export const transferEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/transfer",
  tag: "Payouts",
  summary: "Fund the payout balance from the pay-in balance",
  description: "Moves USD from the pay-in available balance to the payout USD balance in one database transaction.",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  body: z.object({ amountUsd: amountField("> 0, USD") }),
  response: z.object({ transfer: z.object({ id: z.string(), amountUsd: z.number(), createdAt: z.string() }), payinAvailableUsd: z.number(), payoutBalance }),
  errors: ["amount_invalid", "balance_insufficient"],
});

export const swapQuote = z
  .object({ quoteId: z.string(), from: z.literal("USD"), to: z.string(), amountUsd: z.number(), rate: z.number().describe("Units of `to` per USD"), amountLocal: z.number(), feeUsd: z.number(), expiresAt: z.string() })
  .meta({ id: "SwapQuote" });

export const quoteSwapEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/swap",
  tag: "Payouts",
  summary: "Quote a USD to local-currency swap",
  description: "Valid 60 s. amountLocal = (amountUsd - feeUsd) × rate; the fee is 0.50%.",
  auth: "secret",
  permission: "moveMoney",
  query: z.object({ currency: z.string().regex(/^[A-Za-z]{3}$/, "must be a 3-letter ISO-4217 code"), amountUsd: z.string().max(32).describe("> 0, USD") }),
  response: swapQuote,
  errors: ["unsupported_currency", "amount_invalid", "fx_unavailable"],
});

export const executeSwapEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/swap",
  tag: "Payouts",
  summary: "Execute a swap quote",
  description: "Exactly once, before it expires: an executed, expired or unknown quote is 400 invalid_request with details.reason quote_already_executed, quote_expired or quote_not_found.",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  body: z.object({ quoteId: z.string().min(1).max(64) }),
  response: z.object({ swap: swapQuote.omit({ expiresAt: true }).extend({ executedAt: z.string() }), balances: z.array(balanceEntry) }),
  errors: ["invalid_request", "balance_insufficient"],
});

export const sendPayoutEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/send",
  tag: "Payouts",
  summary: "Send a payout",
  description:
    "Debits the amount (in the method's currency) in the same transaction that records the payout; sandbox sbx_po_* rails never debit. Send `Idempotency-Key`: a retry never sends twice. A provider rejection reverses the debit and answers 422 payout_dispatch_failed. A provider answer that is lost (timeout, 5xx, unreadable) is not a rejection: the answer is 200 with the payout processing, its money held, until the provider's notice or the status job settles it.",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  body: sendBody,
  response: z.object({ payout, methodName: z.string(), logoUrl: z.string(), iconUrl: z.string() }),
  errors: ["invalid_request", "payout_method_unavailable", "currency_not_funded", "balance_insufficient", "amount_invalid", "payout_dispatch_failed"],
  errorStatuses: { amount_invalid: 422 },
});

export const listPayoutsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/send",
  tag: "Payouts",
  summary: "List payouts",
  description: "Newest first; limit 1-100 (default 50), clamped; offset or cursor paging (startingAfter / endingBefore).",
  auth: "secret",
  permission: "read",
  query: z.object({ ...listQuery(), status: z.enum(PAYOUT_STATUSES).optional() }),
  response: listOf(payout),
  errors: ["invalid_request"],
});

export const getPayoutEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/send/{id}",
  tag: "Payouts",
  summary: "Retrieve a payout",
  auth: "secret",
  permission: "read",
  params: payoutIdParams,
  response: z.object({ payout }),
  errors: ["payout_not_found"],
});

export const simulatePayoutEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/send/{id}/simulate",
  tag: "Sandbox",
  summary: "Drive a sandbox payout's outcome",
  description: "Sandbox only (a live key gets 400 simulate_sandbox_only). completed/paid complete; failed/rejected/refunded/returned fail it and reverse a real debit; processing changes nothing. Only a processing payout moves.",
  auth: "secret",
  idempotent: true,
  permission: "simulatePayout",
  params: payoutIdParams,
  body: z.object({ action: z.enum(PAYOUT_SIMULATE_ACTIONS) }),
  response: z.object({ payout }),
  errors: ["simulate_sandbox_only", "payout_not_found", "invalid_request"],
});

export const payoutNoticeBody = z.object({
  noticeId: z.string().min(1).max(100),
  payoutId: z.string().min(1).max(200).describe("The provider's id"),
  reference: z.string().max(64).optional().describe("Our payout id"),
  status: z.enum(["PAID", "REJECTED", "REFUNDED"]),
  reason: z.string().max(200).optional(),
});

export const payoutNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/payouts",
  tag: "Providers",
  summary: "Payout outcomes from providers",
  description: "Called by providers, not by merchants. The body is signed `X-Provider-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the provider's notice secret (not the secret our calls carry); unsigned, forged, outbound-secret or more than 5 minutes old notices get 401. The noticeId is recorded once with its effect: a replay is acknowledged and changes nothing. PAID completes a processing payout; REJECTED and REFUNDED fail it and reverse the debit once; REFUNDED after PAID credits it back once (failed, failureReason returned).",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40) }),
  response: z.object({ received: z.boolean(), applied: z.boolean() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request"],
});
