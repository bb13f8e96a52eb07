// Pins the part of Stripe's published OpenAPI document (github:stripe/openapi, openapi/spec3.json)
// that the Stripe connector calls and reads, into lib/providers/stripe/openapi/spec3.subset.json,
// for the contract test (lib/providers/stripe/contract.test.ts). Re-pin after a newer release:
//   npx tsx scripts/stripe-openapi-pin.ts <path to spec3.json> <release tag, e.g. v127> <commit>
// Descriptions and other prose are dropped; a $ref to a schema outside KEEP becomes
// { "x-unpinned": "<name>" } (any value), so the file stays small and says what it left out.
import { readFileSync, writeFileSync } from "node:fs";

const OPERATIONS: Array<[string, "get" | "post"]> = [
  ["/v1/payment_intents", "post"],
  ["/v1/payment_intents", "get"],
  ["/v1/payment_intents/{intent}", "get"],
  ["/v1/payment_intents/search", "get"],
  ["/v1/checkout/sessions", "post"],
  ["/v1/checkout/sessions", "get"],
  ["/v1/checkout/sessions/{session}", "get"],
  ["/v1/refunds", "post"],
  ["/v1/refunds", "get"],
  ["/v1/balance", "get"],
];
/** The objects we read (and the parts of them our transformers look into). */
const KEEP = ["payment_intent", "checkout.session", "refund", "event", "notification_event_data", "balance", "balance_amount", "charge", "dispute", "error", "api_errors", "payment_intent_next_action", "payment_intent_next_action_display_oxxo_details", "payment_intent_next_action_boleto"];
const PROSE = new Set(["description", "title", "x-expandableFields", "x-resourceId", "x-stripeOperations", "x-stripeResource", "x-stripeBypassValidation", "x-stripeMostCommon", "x-stripeParam", "maxLength", "format", "example", "examples"]);

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (PROSE.has(k)) continue;
    if (k === "$ref" && typeof v === "string") {
      const name = v.replace("#/components/schemas/", "");
      if (!KEEP.includes(name)) return { "x-unpinned": name };
    }
    out[k] = prune(v);
  }
  return out;
}

const [specPath, tag, commit] = process.argv.slice(2);
if (!specPath || !tag) {
  console.error("usage: tsx scripts/stripe-openapi-pin.ts <spec3.json> <tag> [commit]");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specPath, "utf8"));
const paths: Record<string, Record<string, unknown>> = {};
for (const [p, m] of OPERATIONS) {
  const op = spec.paths[p]?.[m];
  if (!op) throw new Error(`${m.toUpperCase()} ${p} is not in this document`);
  (paths[p] ??= {})[m] = prune({ parameters: op.parameters, requestBody: op.requestBody, responses: { "200": op.responses["200"], default: op.responses.default } });
}
const schemas: Record<string, unknown> = {};
for (const name of KEEP) {
  if (!spec.components.schemas[name]) throw new Error(`schema ${name} is not in this document`);
  schemas[name] = prune(spec.components.schemas[name]);
}
const pinned = {
  openapi: spec.openapi,
  info: { title: spec.info.title, version: spec.info.version, "x-pinned-from": { repository: "github:stripe/openapi", path: "openapi/spec3.json", tag, commit: commit ?? null } },
  paths,
  components: { schemas },
};
const out = new URL("../lib/providers/stripe/openapi/spec3.subset.json", import.meta.url);
writeFileSync(out, JSON.stringify(pinned, null, 1) + "\n");
console.log(`pinned ${OPERATIONS.length} operations and ${KEEP.length} schemas of ${tag} (API version ${spec.info.version}) -> ${out.pathname}`);
