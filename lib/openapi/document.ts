// The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
import { z } from "zod";
import { ERROR_CODES, errorEnvelopeSchema, errorStatus, type ErrorCode } from "@/lib/platform/errors";
import type { EndpointDef } from "@/lib/platform/contract/endpoint";
import { ruleOf } from "@/lib/platform/auth/policy";
import { API_VERSION } from "@/lib/platform/contract/version";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { EVENT_OBJECTS, EVENT_SCHEMAS, eventComponentName } from "@/lib/events/payloads";

type JsonSchema = Record<string, unknown>;

/** Named shapes (zod `.meta({id})`) land in components.schemas; request shapes get an `Input` suffix. */
const componentName = (id: string, io: "input" | "output") => (io === "input" ? `${id}Input` : id);

function jsonSchema(schema: z.ZodType, io: "input" | "output", components?: Record<string, JsonSchema>): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    reused: "inline",
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const { $defs = {}, $schema: _, ...root } = out;
  // Point every local $defs reference at components.schemas instead.
  const relink = (v: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(v).replace(/"#\/\$defs\/([^"]+)"/g, (_m, id: string) => JSON.stringify(`#/components/schemas/${componentName(id, io)}`)));
  for (const [id, def] of Object.entries($defs)) if (components) components[componentName(id, io)] = relink(def);
  return relink(root);
}

/** Errors every endpoint of a kind can give, on top of the ones it names. */
function commonErrors(e: EndpointDef): ErrorCode[] {
  const codes: ErrorCode[] = ["internal_error", "rate_limited"];
  if (e.auth !== "none") codes.push("missing_credentials", "invalid_api_key", "invalid_token", "token_expired", "environment_mismatch", "merchant_suspended", "shop_suspended");
  if (e.auth === "secret") codes.push("key_kind_not_allowed");
  if (e.shop === "required") codes.push("shop_required");
  const outside = e.permission && ruleOf(e.permission).outside;
  if (outside) codes.push(outside);
  if (e.body) codes.push(...(e.multipart ? (["content_type_required", "invalid_request"] as const) : (["content_type_required", "invalid_json", "invalid_request", "missing_field"] as const)));
  if (e.method === "POST" || e.method === "PUT" || e.method === "PATCH") codes.push("payload_too_large");
  if (e.query || e.params) codes.push("invalid_request");
  if (e.idempotent) codes.push("idempotency_conflict");
  return codes;
}

function queryParameters(e: EndpointDef, components: Record<string, JsonSchema>) {
  const params: JsonSchema[] = [];
  if (e.query) {
    const s = jsonSchema(e.query, "input", components) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(s.properties ?? {})) {
      const { description, ...rest } = schema;
      params.push({ name, in: "query", required: s.required?.includes(name) ?? false, schema: rest, ...(description ? { description } : {}) });
    }
  }
  for (const name of [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
    params.push({ name, in: "path", required: true, schema: { type: "string" } });
  }
  if (e.idempotent) {
    params.push({ name: "Idempotency-Key", in: "header", required: false, description: "Retries with the same key replay the first answer for 24 h.", schema: { type: "string", maxLength: 255 } });
  }
  return params;
}

function operation(e: EndpointDef, components: Record<string, JsonSchema>) {
  const errors = [...new Set([...commonErrors(e), ...e.errors])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) {
    const status = e.errorStatuses?.[code] ?? errorStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {
    [String(e.successStatus ?? 200)]: { description: "Success", content: { [e.responseType ?? "application/json"]: { schema: jsonSchema(e.response, "output", components) } } },
  };
  if (e.alsoSucceeds) responses[String(e.alsoSucceeds.status)] = { description: e.alsoSucceeds.description, content: { [e.responseType ?? "application/json"]: { schema: jsonSchema(e.response, "output", components) } } };
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = { description: `Error: ${codes.join(", ")}`, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  return {
    operationId: `${e.method.toLowerCase()}${e.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    tags: [e.tag],
    security: e.auth === "none" ? [] : [{ bearer: [] }],
    ...(e.auth !== "none" ? { "x-key-kind": e.auth === "secret" ? "S" : "A" } : {}),
    parameters: queryParameters(e, components),
    ...(e.body ? { requestBody: { required: true, content: { [e.multipart ? "multipart/form-data" : "application/json"]: { schema: jsonSchema(e.body, "input", components) } } } } : {}),
    responses,
  };
}

/** The headers of every delivery (api-reference section 6, decisions.md Webhooks). */
const DELIVERY_HEADERS: Array<[string, string]> = [
  ["X-Service-Signature", "t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">[,v0=<the same with the previous secret during a rotation>]"],
  ["X-Service-Event", "The event type"],
  ["X-Service-Delivery", "The delivery id (dlv_…)"],
  ["webhook-id", "Standard Webhooks: the event id"],
  ["webhook-timestamp", "Standard Webhooks: unix seconds"],
  ["webhook-signature", "Standard Webhooks: space-separated v1,<base64 HMAC-SHA256 of \"<id>.<timestamp>.<raw body>\">, one per active secret"],
];

/**
 * OpenAPI 3.1 `webhooks`: one entry per event type the service emits, its body the event's own
 * schema (lib/events/payloads.ts), so generators type each payload.
 */
function webhooks(components: Record<string, JsonSchema>) {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      jsonSchema(EVENT_SCHEMAS[type], "output", components); // registers components.schemas.<Type>Event
      return [
        type,
        {
          post: {
            operationId: `webhook${eventComponentName(type)}`,
            summary: EVENT_OBJECTS[type].summary,
            description: `${type === "webhook.test" ? "Delivered on request (POST /webhooks/{id}/test, sandbox) to that one subscription, whatever its events" : `Delivered to each subscription whose events include \`${type}\` (or \`*\`)`}: verify the signature on the raw body, answer any 2xx within 10 s; anything else is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).`,
            tags: ["Webhooks"],
            parameters: DELIVERY_HEADERS.map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } })),
            requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${eventComponentName(type)}` } } } },
            responses: { "200": { description: "Any 2xx acknowledges the delivery" } },
          },
        },
      ];
    }),
  );
}

export function buildOpenApiDocument(baseUrl: string, endpoints: EndpointDef[] = ENDPOINTS) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  for (const e of endpoints) {
    if (e.internal) continue;
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e, components);
  }
  jsonSchema(errorEnvelopeSchema, "output", components); // registers components.schemas.Error
  const hooks = webhooks(components);
  return {
    openapi: "3.1.0",
    info: {
      title: "Payment Orchestration Service API",
      version: API_VERSION,
      description: "Pay-ins, refunds, balances, deposit accounts, payouts and webhooks for Latin America. Errors use one envelope; `error.code` is the stable contract.",
    },
    servers: [{ url: `${baseUrl}/api/v1` }],
    tags: [...new Set(endpoints.filter((e) => !e.internal).map((e) => e.tag))].map((name) => ({ name })),
    paths,
    webhooks: hooks,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An access token from POST /auth/token, or a raw sk_*/pk_* key." } },
      schemas: {
        ...components,
        // Named generators (and ours) switch on `type` to narrow `data.object`.
        Event: { ...components.Event, discriminator: { propertyName: "type", mapping: Object.fromEntries(EVENT_TYPES.map((t) => [t, `#/components/schemas/${eventComponentName(t)}`])) } },
        ErrorCode: { type: "string", enum: ERROR_CODES },
      },
    },
  };
}
