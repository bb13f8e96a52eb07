// Checks a value against a schema of the pinned OpenAPI subset (./spec3.subset.json, made by
// scripts/stripe-openapi-pin.ts), for the contract test. Two directions:
// - a request we build: every key, top-level and nested, must be a property the reference names
//   (a field Stripe does not have is a finding), every value of an enum one of its words;
// - an answer (the simulator's): every required field present, every enum word allowed, types
//   right where the schema says. A `{ "x-unpinned": … }` schema (left out of the pin) accepts anything.
// Findings are strings naming the path, empty when the value conforms.
import spec from "@/lib/providers/stripe/openapi/spec3.subset.json";

type Schema = Record<string, any>;
export const pinned = spec as unknown as { info: Schema; paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

function resolve(s: Schema | undefined): Schema {
  if (s?.$ref) return resolve(pinned.components.schemas[String(s.$ref).replace("#/components/schemas/", "")]);
  return s ?? {};
}

const typeOk = (type: string | undefined, v: unknown) =>
  !type || (type === "integer" ? Number.isInteger(v) : type === "number" ? typeof v === "number" : type === "array" ? Array.isArray(v) : type === "object" ? typeof v === "object" && v !== null && !Array.isArray(v) : typeof v === type);

/** `mode`: "request" (unknown keys are findings) or "response" (required fields must be there). */
export function check(schemaIn: Schema, value: unknown, at: string, mode: "request" | "response"): string[] {
  const s = resolve(schemaIn);
  if (s["x-unpinned"]) return [];
  if (value === null || value === undefined) return value === null && !s.nullable && mode === "response" ? [`${at}: null where the schema does not allow it`] : [];
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const all = (branches as Schema[]).map((b) => check(b, value, at, mode));
    return all.some((f) => f.length === 0) ? [] : all.sort((a, b) => a.length - b.length)[0]!;
  }
  // A form-encoded request sends booleans and numbers as they are typed by the caller; compare loosely there.
  if (mode === "request" && (s.type === "boolean" || s.type === "integer") && (typeof value === "boolean" || typeof value === "number")) return [];
  if (!typeOk(s.type, value)) return [`${at}: ${JSON.stringify(value)} is not of type ${s.type}`];
  if (s.enum && !s.enum.includes(value)) return [`${at}: "${String(value)}" is not one of ${s.enum.join(", ")}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => check(s.items ?? {}, v, `${at}[${i}]`, mode));
  if (typeof value !== "object") return [];
  const out: string[] = [];
  const props: Schema = s.properties ?? {};
  const obj = value as Record<string, unknown>;
  if (mode === "response") for (const r of (s.required as string[] | undefined) ?? []) if (!(r in obj)) out.push(`${at}.${r}: required, missing`);
  for (const [k, v] of Object.entries(obj)) {
    if (k in props) out.push(...check(props[k], v, `${at}.${k}`, mode));
    else if (s.additionalProperties && typeof s.additionalProperties === "object") out.push(...check(s.additionalProperties, v, `${at}.${k}`, mode));
    else if (mode === "request" && (s.properties || s.additionalProperties === false)) out.push(`${at}.${k}: not a parameter of the reference`);
  }
  return out;
}

function operation(path: string, method: "get" | "post"): Schema {
  const op = pinned.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not pinned`);
  return op;
}

/** A POST's form body against the operation's requestBody schema. */
export function requestFindings(path: string, params: unknown): string[] {
  const schema = operation(path, "post").requestBody?.content?.["application/x-www-form-urlencoded"]?.schema;
  return check(schema, params, "body", "request");
}

/** A GET's query parameters against the operation's declared parameters. */
export function queryFindings(path: string, params: Record<string, unknown>): string[] {
  const declared = new Map<string, Schema>(((operation(path, "get").parameters as Schema[] | undefined) ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.schema]));
  return Object.entries(params).flatMap(([k, v]) => (declared.has(k) ? check(declared.get(k)!, v, `query.${k}`, "request") : [`query.${k}: not a parameter of the reference`]));
}

/** An answer against the operation's 200 schema (or a named component, e.g. "event", "error"). */
export function responseFindings(target: { path: string; method: "get" | "post" } | { schema: string }, body: unknown): string[] {
  const schema = "schema" in target ? { $ref: `#/components/schemas/${target.schema}` } : operation(target.path, target.method).responses?.["200"]?.content?.["application/json"]?.schema;
  return check(schema, body, "answer", "response");
}
