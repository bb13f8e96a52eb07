// zod failures become the contract's errors: a required field that is absent -> missing_field
// with `param`; anything else -> invalid_request with details.issues [{path, message}].
import type { z } from "zod";
import { AppError } from "@/lib/platform/errors";

export type Issue = { path: string; message: string };

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur = input;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg as string];
  }
  return cur;
}

const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);

export function formatPath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
}

export function zodToAppError(error: z.ZodError, input: unknown, where: "body" | "query" | "path" | "header"): AppError {
  const issues: Issue[] = error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  // Absent, whatever the schema kind (zod reports a missing enum as invalid_value, a missing
  // union as invalid_union): the value is undefined while its parent object exists.
  const missing = error.issues.filter((i) => i.path.length > 0 && valueAt(input, i.path) === undefined && isObject(valueAt(input, i.path.slice(0, -1))));
  if (missing.length > 0) {
    const param = formatPath(missing[0]!.path);
    return new AppError("missing_field", `Missing required ${where === "body" ? "field" : "parameter"} \`${param}\`.`, {
      param,
      details: { issues, missingFields: missing.map((i) => formatPath(i.path)) },
    });
  }
  const first = issues[0];
  return new AppError("invalid_request", first ? `Invalid ${where}: ${first.path ? `\`${first.path}\` ` : ""}${first.message}` : `Invalid ${where}.`, {
    ...(first?.path ? { param: first.path } : {}),
    details: { issues },
  });
}

/**
 * The checkout flavour (4.5): every failure, absent fields included, is one invalid_request
 * listing all issues, the absent fields as a flat list, and where to read about the shape.
 */
export function zodToInvalidRequest(error: z.ZodError, input: unknown, helpUrl: string): AppError {
  const issues: Issue[] = error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  const missingFields = error.issues.filter((i) => i.path.length > 0 && valueAt(input, i.path) === undefined).map((i) => formatPath(i.path));
  const first = issues[0];
  const message = missingFields.length
    ? `Missing required field${missingFields.length > 1 ? "s" : ""}: ${missingFields.map((f) => `\`${f}\``).join(", ")}.`
    : first ? `Invalid body: ${first.path ? `\`${first.path}\` ` : ""}${first.message}` : "Invalid body.";
  return new AppError("invalid_request", message, {
    ...(first?.path ? { param: missingFields[0] ?? first.path } : {}),
    details: { issues, missingFields, helpUrl },
  });
}

/**
 * Whether `input` holds U+0000 in a string or an object key; `path` is left naming where (one
 * array pushed and popped along the walk: this runs on every request's input).
 */
function holdsNul(input: unknown, path: PropertyKey[], depth: number): boolean {
  if (typeof input === "string") return input.includes("\u0000");
  if (input === null || typeof input !== "object" || depth > 64) return false;
  const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(input) ? input.entries() : Object.entries(input);
  for (const [k, v] of entries) {
    path.push(k);
    if ((typeof k === "string" && k.includes("\u0000")) || holdsNul(v, path, depth + 1)) return true;
    path.pop();
  }
  return false;
}

/**
 * PostgreSQL's text cannot hold U+0000, so a NUL anywhere in a request's input (JSON body, query,
 * path) is refused here as invalid_request naming where it is, before any use case would fail on it.
 */
export function refuseNul(input: unknown, where: "body" | "query" | "path"): void {
  const path: PropertyKey[] = [];
  if (!holdsNul(input, path, 0)) return;
  // A key holding the NUL is named with it spelt out: the answer itself must hold no NUL either
  // (the request log stores answers as jsonb, which refuses one).
  const param = formatPath(path.map((p) => (typeof p === "string" ? p.replaceAll("\u0000", "\\u0000") : p)));
  const message = "must not contain the NUL character (U+0000)";
  throw new AppError("invalid_request", `Invalid ${where}: ${param ? `\`${param}\` ` : ""}${message}`, {
    ...(param ? { param } : {}),
    details: { issues: [{ path: param, message }] },
  });
}

/** `input` through `schema`, its failures as the contract's errors; a NUL anywhere is refused first (refuseNul). */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, where: "body" | "query" | "path" | "header"): z.output<S> {
  if (where !== "header") refuseNul(input, where);
  const result = schema.safeParse(input);
  if (!result.success) throw zodToAppError(result.error, input, where);
  return result.data;
}
