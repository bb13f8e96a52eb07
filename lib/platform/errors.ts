// The one error model and the one table of error codes (API reference section 7). Every error
// answer of the API is built from this table: the code decides the HTTP status and `type`.
import { z } from "zod";

/** Types group codes the way integrators branch on them (Stripe-style). */
export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "idempotency_error"
  | "rate_limit_error"
  | "card_error"
  | "api_error";

const table = {
  // Authentication
  missing_credentials: [401, "authentication_error"],
  invalid_api_key: [401, "authentication_error"],
  invalid_token: [401, "authentication_error"],
  token_expired: [401, "authentication_error"],
  shop_required: [401, "authentication_error"],
  mobile_auth_failed: [401, "authentication_error"],
  mobile_session_invalid: [401, "authentication_error"],
  // Not in section 7's table: a provider notice whose signature does not verify (section 5.7).
  invalid_signature: [401, "authentication_error"],
  production_key_refused: [400, "invalid_request_error"],
  environment_mismatch: [403, "permission_error"],
  key_kind_not_allowed: [403, "permission_error"],
  forbidden: [403, "permission_error"],
  permission_denied: [403, "permission_error"],
  merchant_suspended: [403, "permission_error"],
  shop_suspended: [403, "permission_error"],
  method_not_enabled_for_shop: [403, "permission_error"],
  qr_establishment_suspended: [403, "permission_error"],
  // Not in section 7's table: dashboard accounts (two-factor sign-in, team).
  two_factor_required: [403, "permission_error"],
  two_factor_invalid: [400, "invalid_request_error"],
  last_owner: [409, "invalid_request_error"],
  dashboard_user_not_found: [404, "invalid_request_error"],
  dashboard_user_exists: [409, "invalid_request_error"],
  // Request shape
  content_type_required: [415, "invalid_request_error"],
  payload_too_large: [413, "invalid_request_error"],
  invalid_json: [400, "invalid_request_error"],
  invalid_request: [400, "invalid_request_error"],
  missing_field: [400, "invalid_request_error"],
  unsupported_method: [400, "invalid_request_error"],
  unsupported_country: [400, "invalid_request_error"],
  unsupported_currency: [400, "invalid_request_error"],
  amount_invalid: [400, "invalid_request_error"],
  amount_below_minimum: [400, "invalid_request_error"],
  amount_above_maximum: [400, "invalid_request_error"],
  // Not in section 7's table: an installment count the shop's plan does not offer for that amount (decisions.md "Installments").
  installments_unavailable: [400, "invalid_request_error"],
  simulate_sandbox_only: [400, "invalid_request_error"],
  fund_sandbox_only: [400, "invalid_request_error"],
  // Not in section 7's table: unknown routes and wrong methods under /api/v1 (documented in docs/integrators/errors.md).
  route_not_found: [404, "invalid_request_error"],
  method_not_allowed: [405, "invalid_request_error"],
  idempotency_conflict: [409, "idempotency_error"],
  // Declines
  card_declined: [402, "card_error"],
  insufficient_funds: [402, "card_error"],
  fraud_blocked: [402, "card_error"],
  kyc_required: [402, "card_error"],
  three_ds_required: [402, "card_error"],
  three_ds_failed: [402, "card_error"],
  expired_card: [402, "card_error"],
  // Business rules
  missing_required_fields: [422, "invalid_request_error"],
  amount_out_of_limits: [422, "invalid_request_error"],
  balance_insufficient: [422, "invalid_request_error"],
  fx_unavailable: [422, "invalid_request_error"],
  currency_not_funded: [422, "invalid_request_error"],
  payout_method_unavailable: [422, "invalid_request_error"],
  deposit_accounts_unavailable: [422, "invalid_request_error"],
  deposit_method_required: [422, "invalid_request_error"],
  deposit_method_unavailable: [422, "invalid_request_error"],
  cascade_exhausted: [422, "invalid_request_error"],
  payout_dispatch_failed: [422, "invalid_request_error"],
  // Not in section 7's table: a variable mandate's charge above its maxAmount (decisions.md "Recurring PIX (mandates)").
  amount_above_mandate_maximum: [422, "invalid_request_error"],
  // Not found / conflicts
  payout_not_found: [404, "invalid_request_error"],
  event_not_found: [404, "invalid_request_error"],
  topup_not_found: [404, "invalid_request_error"],
  qr_establishment_not_found: [404, "invalid_request_error"],
  qr_order_not_found: [404, "invalid_request_error"],
  qr_order_not_pending: [409, "invalid_request_error"],
  // Not in section 7's table: recurring PIX mandates (decisions.md "Recurring PIX (mandates)").
  mandate_not_found: [404, "invalid_request_error"],
  mandate_not_active: [409, "invalid_request_error"],
  mandate_not_pending: [409, "invalid_request_error"],
  charge_already_scheduled: [409, "invalid_request_error"],
  deposit_account_not_found: [404, "invalid_request_error"],
  deposit_account_conflict: [409, "invalid_request_error"],
  payout_proof_unavailable: [404, "invalid_request_error"],
  settlement_already_paid: [409, "invalid_request_error"],
  claim_already_resolved: [409, "invalid_request_error"],
  // Not in section 7's table: evidence sent after a chargeback's dueBy (decisions.md "Claims listing and disputes").
  evidence_window_closed: [409, "invalid_request_error"],
  shop_not_found: [404, "invalid_request_error"],
  merchant_not_found: [404, "invalid_request_error"],
  transaction_not_found: [404, "invalid_request_error"],
  checkout_session_not_found: [404, "invalid_request_error"],
  checkout_session_already_completed: [409, "invalid_request_error"],
  settlement_not_found: [404, "invalid_request_error"],
  claim_not_found: [404, "invalid_request_error"],
  wallet_not_found: [404, "invalid_request_error"],
  withdrawal_not_found: [404, "invalid_request_error"],
  webhook_not_found: [404, "invalid_request_error"],
  webhook_delivery_not_found: [404, "invalid_request_error"],
  // Server and upstream
  payment_instructions_unavailable: [502, "api_error"],
  deposit_account_provisioning_failed: [502, "api_error"],
  topup_address_unavailable: [503, "api_error"],
  rate_limited: [429, "rate_limit_error"],
  service_unavailable: [503, "api_error"],
  internal_error: [500, "api_error"],
} as const satisfies Record<string, readonly [number, ErrorType]>;

export type ErrorCode = keyof typeof table;
export const ERROR_CODES = Object.keys(table) as ErrorCode[];
export const errorCodeSchema = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

export function errorStatus(code: ErrorCode): number {
  return table[code][0];
}
export function errorType(code: ErrorCode): ErrorType {
  return table[code][1];
}

export type AppErrorOptions = {
  param?: string;
  declineCode?: string;
  details?: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After, Allow). */
  headers?: Record<string, string>;
  /**
   * Only where the contract itself gives a code another status on one endpoint (4.7: payout
   * send answers amount_invalid with 422); everywhere else the table decides.
   */
  status?: 422;
  cause?: unknown;
};

/** The only error the domain throws. Transport maps it to the envelope; nothing else does. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly declineCode?: string;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  private readonly statusOverride?: number;

  constructor(code: ErrorCode, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.param = opts.param;
    this.declineCode = opts.declineCode;
    this.details = opts.details;
    this.headers = opts.headers;
    this.statusOverride = opts.status;
  }

  get status(): number {
    return this.statusOverride ?? errorStatus(this.code);
  }
}

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: errorCodeSchema,
      type: z.string(),
      message: z.string(),
      param: z.string().optional(),
      decline_code: z.string().optional(),
      requestId: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "Error" });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export function toEnvelope(err: AppError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      type: errorType(err.code),
      message: err.message,
      ...(err.param !== undefined && { param: err.param }),
      ...(err.declineCode !== undefined && { decline_code: err.declineCode }),
      requestId,
      ...(err.details !== undefined && { details: err.details }),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A lost or unreachable database is an outage, not a bug: the contract's 503
// service_unavailable with Retry-After (safe to retry with the same Idempotency-Key).

/** Seconds a client is asked to wait after a database outage answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// Socket errors, SQLSTATEs (class 08 connection exception, 57P01-03 admin/crash shutdown and
// "starting up", 53300 too many connections), the driver adapter's kinds and Prisma's
// connection codes. pg's own "Connection terminated…" errors carry no code: those are matched
// by their fixed text, the one place where a message decides (there is nothing else to go by).
const OUTAGE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "57P01", "57P02", "57P03", "53300", "P1001", "P1002", "P1008", "P1017", "P2024"]);
const OUTAGE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const OUTAGE_TEXT = /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly)/;

/** Whether `err` (or anything in its cause chain) says the database was lost or could not be reached. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof e.code === "string" && (OUTAGE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  if (typeof e.kind === "string" && OUTAGE_KINDS.has(e.kind)) return true;
  if (typeof e.kind === "string" && e.kind === "postgres" && typeof e.code === "string") return false;
  if (typeof e.message === "string" && OUTAGE_TEXT.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1);
}

/** The answer to a request the database outage stopped. */
export function databaseUnavailable(): AppError {
  return new AppError("service_unavailable", `The service is briefly unavailable (its database cannot be reached). Retry after ${DATABASE_RETRY_AFTER_SECONDS} s; retrying with the same Idempotency-Key is safe.`, {
    headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

// ---------------------------------------------------------------------------------------------
// Two transactions that met on the same rows and were rolled back whole: PostgreSQL's deadlock
// victim (40P01), a serialisation failure (40001), a lock asked for without waiting and found
// held (55P03), and Prisma's name for the first two (P2034; a raw statement's carries the
// SQLSTATE as the driver adapter's `originalCode`). Nothing of the attempt remains, so it may run
// again: the kernel does (lib/ledger/transition.ts, kernelTransaction), and one that lost every
// attempt is answered 503 with Retry-After, never a 500.
const CONFLICT_CODES = new Set(["40P01", "40001", "55P03", "P2034"]);

/** Seconds a client is asked to wait after a change that lost to another one on the same rows. */
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

/** Whether `err` (or anything in its cause chain) is a transaction rolled back by a conflict with another. */
export function isTransactionConflict(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof e.code === "string" && CONFLICT_CODES.has(e.code)) return true;
  if (typeof e.originalCode === "string" && CONFLICT_CODES.has(e.originalCode)) return true;
  return isTransactionConflict(e.cause, depth + 1) || isTransactionConflict(e.meta?.driverAdapterError, depth + 1);
}

/** The answer to a request whose change lost to a concurrent one on every attempt. */
export function transactionConflict(): AppError {
  return new AppError("service_unavailable", `The change met a concurrent change of the same money and was rolled back; nothing was applied. Retry after ${CONFLICT_RETRY_AFTER_SECONDS} s; retrying with the same Idempotency-Key is safe.`, {
    headers: { "Retry-After": String(CONFLICT_RETRY_AFTER_SECONDS) },
  });
}
