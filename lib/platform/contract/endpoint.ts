// An endpoint is declared once: method, path, auth needs and zod shapes. The same declaration
// drives request validation in the handler wrapper and the OpenAPI document.
import type { z } from "zod";
import type { ErrorCode } from "@/lib/platform/errors";
import type { Permission } from "@/lib/platform/auth/policy";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type EndpointDef = EndpointBase &
  (
    | { auth: "none"; permission?: undefined }
    /**
     * What the caller must be allowed (lib/platform/auth/policy.ts): key kinds, environments and the code a
     * refusal answers come from the policy table; `auth` is the contract's S/A letter and a unit
     * test keeps the two in step.
     */
    | { auth: "secret" | "any"; permission: Permission }
  );

type EndpointBase = {
  method: HttpMethod;
  /** OpenAPI-style path relative to /api/v1, e.g. `/payments/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** S = secret, A = any key, T = none (API reference section 4). */
  auth: "secret" | "any" | "none";
  shop?: "required" | "optional";
  /** Creating POSTs: `Idempotency-Key` is honoured (decisions.md, Idempotency). */
  idempotent?: boolean;
  body?: z.ZodType;
  /**
   * Replaces the standard parse of `body` (which stays the documented shape) when an endpoint
   * validates in its own way, e.g. a body whose shape depends on a field.
   */
  parseBody?: (raw: unknown) => unknown;
  /**
   * The body is multipart/form-data (file uploads) of at most `limitBytes`: `body` documents its
   * fields, `parseBody` receives the parsed FormData. The idempotency fingerprint is the bytes' hash.
   */
  multipart?: { limitBytes: number };
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
  successStatus?: 200 | 201;
  /** Another success status answering the same shape (get-or-create: 201 created, 200 existing), and when. */
  alsoSucceeds?: { status: 200 | 201; description: string };
  /**
   * A success answer that is not JSON (`text/csv`, `application/pdf`): the handler returns a
   * `Response` it built (streamed or not); `response` documents it (a string schema).
   */
  responseType?: string;
  /** The error codes this endpoint can answer beyond the ones every endpoint shares. */
  errors: ErrorCode[];
  /** Where the contract gives one of those codes another status on this endpoint (documented). */
  errorStatuses?: Partial<Record<ErrorCode, 422>>;
  /** false: not rate limited (signed provider notices). */
  rateLimit?: false;
  /** Served but left out of the public OpenAPI document (test fixtures). */
  internal?: boolean;
};

export function defineEndpoint<const E extends EndpointDef>(def: E): E {
  return def;
}

export type BodyOf<E extends EndpointDef> = E extends { parseBody: (raw: unknown) => infer R } ? R : E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;
export type QueryOf<E extends EndpointDef> = E["query"] extends z.ZodType ? z.output<E["query"]> : undefined;
export type ParamsOf<E extends EndpointDef> = E["params"] extends z.ZodType ? z.output<E["params"]> : Record<string, string>;
export type ResponseOf<E extends EndpointDef> = z.input<E["response"]>;
