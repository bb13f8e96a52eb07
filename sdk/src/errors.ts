import type { components } from "./schema.ts";

/** The API's error envelope (`{error:{code, type, message, param?, details?, requestId}}`). */
export type ErrorEnvelope = components["schemas"]["Error"];
/** Every documented error code: switch on it, never on messages. */
export type ErrorCode = components["schemas"]["ErrorCode"];

/** A non-2xx answer of the API, with the envelope's fields typed. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | "unknown_error";
  readonly type: string;
  readonly param?: string;
  readonly details?: Record<string, unknown>;
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;

  constructor(status: number, body: unknown, headers?: Headers) {
    const e = (body as { error?: Record<string, unknown> } | undefined)?.error ?? {};
    super(typeof e.message === "string" ? e.message : `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = (typeof e.code === "string" ? e.code : "unknown_error") as ErrorCode;
    this.type = typeof e.type === "string" ? e.type : "api_error";
    if (typeof e.param === "string") this.param = e.param;
    if (e.details && typeof e.details === "object") this.details = e.details as Record<string, unknown>;
    this.requestId = typeof e.requestId === "string" ? e.requestId : (headers?.get("x-request-id") ?? undefined);
    const ra = Number(headers?.get("retry-after"));
    if (Number.isFinite(ra) && ra >= 0) this.retryAfterSeconds = ra;
  }
}

/** A delivery whose signature, timestamp or headers do not verify. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}
