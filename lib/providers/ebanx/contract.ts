// The contract checks' tools (transformers.test.ts, scripts/psp/ebanx/contract.test.ts): the field
// paths of a JSON value, and the ones a body has that the documented example does not.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseExactJson } from "@/lib/providers/ebanx/exact-json";

/** A fixture of ./fixtures/, parsed with its numbers kept as their exact text. */
export const fixture = (name: string): any => parseExactJson(readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8"));

/** Every field path of a value ("payment.pix.qr_code_value"); arrays are looked into as "[]". */
export function fieldPaths(v: unknown, prefix = ""): string[] {
  if (Array.isArray(v)) return v.flatMap((x) => fieldPaths(x, `${prefix}[]`));
  if (v && typeof v === "object" && !("__decimal" in (v as object))) {
    return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => {
      const p = prefix ? `${prefix}.${k}` : k;
      return [p, ...fieldPaths(x, p)];
    });
  }
  return [];
}

/** The fields `body` sends that `documented` (the published example or reference) does not have. */
export function undocumentedFields(body: unknown, documented: unknown): string[] {
  const known = new Set(fieldPaths(documented));
  return fieldPaths(body).filter((p) => !known.has(p));
}
