import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { matchApiRoute, readApiRoutes } from "./api-dispatch.ts";

const root = path.resolve(import.meta.dirname, "../..");
const routes = readApiRoutes(root);

/** Every route.ts under app/api/v1, found independently of the dispatcher. */
function routeFiles(dir = path.join(root, "app/api/v1"), out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) routeFiles(p, out);
    else if (e.name === "route.ts") out.push(path.relative(root, p));
  }
  return out;
}

/** A concrete path for a route's pattern: a value for each [param], two segments for a catch-all. */
const concrete = (pattern: string) => pattern.replace(/\[\.\.\.\w+\]/, "no/such/path").replace(/\[\w+\]/g, "x_unknown").slice("/api/v1/".length).split("/").filter(Boolean);

test("the fast path's table holds every route file", () => {
  assert.deepEqual(routes.map((r) => r.file).sort(), routeFiles().sort());
});

test("every route file is reached by a concrete path of its own pattern (no other route shadows it)", () => {
  for (const r of routes) {
    const found = matchApiRoute(routes, concrete(r.pattern));
    assert.equal(found?.route.file, r.file, `${r.pattern}`);
  }
});

test("static segments win over [params], [params] over the catch-all, as in Next", () => {
  assert.equal(matchApiRoute(routes, ["exports", "ledger.csv"])?.route.pattern, "/api/v1/exports/ledger.csv");
  assert.equal(matchApiRoute(routes, ["payments", "tx_1"])?.route.pattern, "/api/v1/payments/[id]");
  assert.deepEqual(matchApiRoute(routes, ["payments", "tx_1"])?.params, { id: "tx_1" });
  assert.equal(matchApiRoute(routes, ["payments", "tx_1", "refund"])?.route.pattern, "/api/v1/payments/[id]/refund");
  const unknown = matchApiRoute(routes, ["payments", "tx_1", "nope", "deeper"]);
  assert.equal(unknown?.route.pattern, "/api/v1/[...path]");
  assert.deepEqual(unknown?.params, { path: ["payments", "tx_1", "nope", "deeper"] });
  assert.equal(matchApiRoute(routes, ["checkout", "sessions"])?.route.pattern, "/api/v1/checkout/sessions");
  assert.equal(matchApiRoute(routes, [])?.route ?? null, null, "/api/v1 itself is Next's");
});

test("the peer-address header is the one lib/http/client-ip.ts reads", async () => {
  const { PEER_HEADER } = await import("./api-dispatch.ts");
  const lib = await import("../../lib/http/client-ip.ts");
  assert.equal(PEER_HEADER, lib.PEER_HEADER);
});
