// Deposit accounts (CLABE) and deposits: request/response shapes and endpoint declarations
// (API reference 2.6-2.8, 3.4, 4.6; decisions.md Deposit accounts).
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listMetaShape, listQuery } from "@/lib/platform/paging/pagination";
import { minorUnitsText } from "@/lib/money/notice-amounts";

export const depositMethod = z
  .object({ depositMethodId: z.string(), method: z.string(), name: z.string(), country: z.string().describe("ISO-3"), currency: z.string() })
  .meta({ id: "DepositMethod" });

export const depositStats = z
  .object({
    deposits: z.number().int().describe("Transfers received, any status"),
    credited: z.number().int(),
    totalUsd: z.number().describe("Sum of amountUsd of credited deposits"),
    localTotals: z.array(z.object({ currency: z.string(), amount: z.number() })),
    lastDepositAt: z.string().nullable(),
  })
  .meta({ id: "DepositStats" });

export const depositAccount = z
  .object({
    id: z.string().describe("eda_…"),
    endUserRef: z.string(),
    depositMethodId: z.string(),
    clabe: z.string().describe("18 digits, valid check digit; never changes"),
    bank: z.string().nullable().describe("Only when the network states the institution; never inferred from the CLABE"),
    currency: z.string(),
    country: z.string().describe("ISO-3 of the network"),
    methodName: z.string(),
    beneficiary: z.object({ name: z.string(), email: z.string().nullable() }),
    customer: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable(), documentType: z.string().nullable(), documentId: z.string().nullable(), country: z.string().nullable() }),
    metadata: z.record(z.string(), z.string()),
    status: z.enum(["active", "disabled"]),
    environment: z.enum(["sandbox", "production"]),
    createdAt: z.string(),
    updatedAt: z.string(),
    stats: depositStats.optional().describe("Only with include=stats"),
  })
  .meta({ id: "DepositAccount" });

export const deposit = z
  .object({
    id: z.string().describe("edp_…"),
    depositAccountId: z.string(),
    transactionId: z.string().nullable().describe("The completed pay-in this deposit produced (null unless credited)"),
    amount: z.number().describe("As sent, local major units"),
    currency: z.string(),
    amountUsd: z.number().nullable().describe("Snapshotted at credit time"),
    feeUsd: z.number().nullable(),
    netUsd: z.number().nullable().describe("amountUsd - feeUsd (the rolling reserve is part of it)"),
    status: z.enum(["credited", "pending", "rejected"]),
    rejectReason: z.string().nullable(),
    beneficiaryName: z.string(),
    beneficiaryEmail: z.string().nullable(),
    payerName: z.string().nullable(),
    payerBank: z.string().nullable(),
    payerDocument: z.string().nullable(),
    trackingKey: z.string(),
    reference: z.string().nullable(),
    receivedAt: z.string(),
  })
  .meta({ id: "Deposit" });

const text = (max: number) => z.string().max(max);

export const METADATA_MAX_ENTRIES = 20;
export const getOrCreateBody = z.object({
  // endUserRef, name and email are checked by the use case, so that every missing one is
  // reported together in details.required (4.6), and email only when an account is created.
  endUserRef: z.string().trim().min(1).max(200).optional(),
  name: z.string().trim().min(1).max(200).optional().describe("Beneficiary full name; required"),
  email: z.email().max(254).optional().describe("Beneficiary email; required on creation"),
  phone: text(40).optional(),
  documentType: text(20).optional(),
  documentId: text(60).optional(),
  country: z.string().regex(/^[A-Za-z]{2,3}$/, "must be an ISO-2 or ISO-3 code").optional().describe("Uppercased on write"),
  metadata: z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((m) => Object.keys(m).length <= METADATA_MAX_ENTRIES, `at most ${METADATA_MAX_ENTRIES} entries`)
    .optional()
    .describe("Up to 20 string values of at most 500 characters (keys at most 40)"),
  depositMethodId: z.string().max(60).optional().describe("Optional with one enabled method, required with two or more"),
});
export type GetOrCreateInput = z.infer<typeof getOrCreateBody>;

export const listAccountsQuery = z.object({
  ...listQuery({ max: 200 }),
  endUserRef: z.string().max(200).optional(),
  include: z.enum(["stats"]).optional(),
});

export const accountIdParams = z.object({ id: z.string().min(1).max(64) });


export const simulateDepositBody = z.object({
  amount: z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: "> 0, major units of the account's currency" }),
  payerName: z.string().trim().min(1).max(200),
  payerBank: z.string().trim().min(1).max(100),
  payerDocument: z.string().max(60).optional(),
  trackingKey: z.string().regex(/^[A-Za-z0-9]{1,30}$/, "up to 30 letters and digits").optional().describe("Default: a new random key"),
  reference: z.string().max(120).optional(),
});

const SHOP_ONLY = "Needs a shop-bound credential: a merchant-wide one gets 400 invalid_request. Accounts of other shops answer 404 like unknown ids.";

export const listDepositMethodsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/deposit-methods",
  tag: "Deposit accounts",
  summary: "Deposit methods the shop offers",
  description: `Empty means deposit accounts are not enabled for the shop. ${SHOP_ONLY}`,
  auth: "secret",
  permission: "read",
  response: z.object({ methods: z.array(depositMethod) }),
  errors: ["invalid_request"],
});

export const getOrCreateAccountEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/deposit-accounts",
  tag: "Deposit accounts",
  summary: "Get or create the deposit account of an end user",
  description: `Keyed on endUserRef: 201 with created true for a new account, 200 with created false for the existing one. ${SHOP_ONLY}`,
  auth: "secret",
  permission: "collect",
  idempotent: true,
  body: getOrCreateBody,
  response: z.object({ created: z.boolean(), account: depositAccount }),
  successStatus: 201,
  alsoSucceeds: { status: 200, description: "The end user's existing account (created: false)" },
  errors: ["invalid_request", "deposit_accounts_unavailable", "deposit_method_required", "deposit_method_unavailable", "deposit_account_conflict", "deposit_account_provisioning_failed"],
});

export const listAccountsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/deposit-accounts",
  tag: "Deposit accounts",
  summary: "List deposit accounts",
  description: `Newest first. limit 1-200 (default 50), clamped. ${SHOP_ONLY}`,
  auth: "secret",
  permission: "read",
  query: listAccountsQuery,
  response: z.object({ accounts: z.array(depositAccount), ...listMetaShape() }),
  errors: ["invalid_request"],
});

export const getAccountEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/deposit-accounts/{id}",
  tag: "Deposit accounts",
  summary: "Retrieve a deposit account",
  description: SHOP_ONLY,
  auth: "secret",
  permission: "read",
  params: accountIdParams,
  response: z.object({ account: depositAccount }),
  errors: ["invalid_request", "deposit_account_not_found"],
});

export const listDepositsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/deposit-accounts/{id}/deposits",
  tag: "Deposit accounts",
  summary: "Deposits received on an account",
  description: `Newest first. limit 1-200 (default 50), clamped. ${SHOP_ONLY}`,
  auth: "secret",
  permission: "read",
  params: accountIdParams,
  query: z.object({ ...listQuery({ max: 200 }) }),
  response: z.object({
    account: z.object({ id: z.string(), endUserRef: z.string(), clabe: z.string(), currency: z.string(), status: z.enum(["active", "disabled"]) }),
    stats: depositStats,
    deposits: z.array(deposit),
    ...listMetaShape(),
  }),
  errors: ["invalid_request", "deposit_account_not_found"],
});

export const simulateDepositEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/deposit-accounts/{id}/simulate-deposit",
  tag: "Sandbox",
  summary: "Simulate a SPEI transfer to a sandbox CLABE",
  description:
    "Sandbox only. Credits exactly as a real transfer would: a completed pay-in transaction, its ledger postings and payment.completed. 201 for a new deposit; 200 with created false when the trackingKey was already received (credited once).",
  auth: "secret",
  permission: "simulateDeposit",
  idempotent: true,
  params: accountIdParams,
  body: simulateDepositBody,
  response: z.object({ created: z.boolean(), deposit }),
  successStatus: 201,
  errors: ["invalid_request", "deposit_account_not_found", "amount_invalid", "fx_unavailable"],
});

export const depositNoticeBody = z.object({
  noticeId: z.string().min(1).max(100),
  clabe: z.string().regex(/^\d{18}$/),
  amount: minorUnitsText().describe("Minor units of `currency` (digits), at most 10^15; more is 400 invalid_request"),
  currency: z.string().regex(/^[A-Z]{3}$/),
  trackingKey: z.string().min(1).max(30),
  status: z.enum(["pending", "credited"]).default("credited"),
  payerName: z.string().max(200).nullish(),
  payerBank: z.string().max(100).nullish(),
  payerDocument: z.string().max(60).nullish(),
  reference: z.string().max(120).nullish(),
  receivedAt: z.iso.datetime({ offset: true }).optional(),
});

export type DepositNotice = z.output<typeof depositNoticeBody>;

export const depositNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/deposits",
  tag: "Providers",
  summary: "Incoming transfers to provider-issued CLABEs",
  description:
    "Called by providers, not by merchants. The body is signed `X-Provider-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the provider's notice secret (not the secret our calls carry); unsigned, forged, outbound-secret or more than 5 minutes old notices get 401. The noticeId is recorded once with its effect: a replay is acknowledged and changes nothing. The same trackingKey on an account credits once. A credited report whose currency or amount differs from the pending report of the same trackingKey credits nothing: it is acknowledged (applied: false) and held for an operator, the deposit stays pending, and a credited report that agrees still credits it. amount is at most 10^15 minor units (more: 400 invalid_request, param amount).",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40) }),
  response: z.object({ received: z.boolean(), applied: z.boolean() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request", "fx_unavailable"],
});
