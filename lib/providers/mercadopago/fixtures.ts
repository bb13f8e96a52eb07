// The contract fixtures (./fixtures/*.json: Mercado Pago's published examples, each naming its
// page in `_source`) and the field check the tests run with them: a body we build may hold only
// field paths that MP's documented examples of that endpoint hold.
import { readFileSync } from "node:fs";
import path from "node:path";

export function fixture(name: string): any {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", `${name}.json`), "utf8"));
}

/** Every field path of a JSON value ("payer.identification.type", "items[].unit_price"); our `_…` notes left out. */
export function fieldPaths(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) fieldPaths(v, `${prefix}[]`, out);
    return out;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith("_")) continue;
      const p = prefix ? `${prefix}.${k}` : k;
      out.add(p);
      fieldPaths(v, p, out);
    }
  }
  return out;
}

/** The union of the field paths of these fixtures. */
export const documentedFields = (...names: string[]) => new Set(names.flatMap((n) => [...fieldPaths(fixture(n))]));

/** Throws naming every path of `body` that no documented example has. */
export function assertDocumented(body: unknown, documented: Set<string>, what: string): void {
  const extra = [...fieldPaths(body)].filter((p) => !documented.has(p));
  if (extra.length) throw new Error(`${what}: not in MP's documented examples: ${extra.join(", ")}`);
}

/** Throws naming every path of a fixture that `answer` lacks (the simulator's answers against MP's examples). */
export function assertCarries(answer: unknown, fixtureName: string): void {
  const has = fieldPaths(answer);
  const missing = [...fieldPaths(fixture(fixtureName))].filter((p) => !has.has(p));
  if (missing.length) throw new Error(`answer lacks fields of ${fixtureName}: ${missing.join(", ")}`);
}
