// The fast path's route table (scripts/lib/fast-path/route-table.ts) against the route files themselves:
// every app/api/v1 route file is in it, and a path shaped like a file's pattern reaches that
// file, with Next's precedence (static, then [param], then [...rest]).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import path from "node:path";
import { apiRoutes, matchRoute } from "./fast-path/route-table.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** The manifest Next writes for these files ("/api/v1/x/[id]/route" -> "app/api/v1/x/[id]/route.js"). */
function manifestOfRouteFiles(top = "app/api/v1"): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name === "route.ts") out[`/${dir.slice("app/".length)}/route`] = `${rel.slice(0, -3)}.js`;
    }
  };
  walk(top);
  return out;
}

const manifest = manifestOfRouteFiles();
const routes = apiRoutes({ ...manifest, "/dashboard/page": "app/dashboard/page.js", "/api/inngest/route": "app/api/inngest/route.js" });

test("every /api/v1 route file is in the table, and nothing else", () => {
  assert.ok(routes.length > 50, `found ${routes.length} routes`);
  assert.deepEqual(routes.map((r) => r.page).sort(), Object.keys(manifest).sort());
});

test("a path shaped like a route file's pattern reaches that file and names its params", () => {
  for (const route of routes) {
    const parts = route.segments.flatMap((s) => (s.kind === "static" ? [s.value] : s.kind === "param" ? [`value-of-${s.name}`] : ["a", "b"]));
    const found = matchRoute(routes, parts);
    // A param whose sample happens to equal a sibling's static name cannot occur: samples are "value-of-…".
    assert.equal(found?.route.page, route.page, `/${parts.join("/")}`);
    for (const s of route.segments) {
      if (s.kind === "param") assert.equal(found!.params[s.name], `value-of-${s.name}`);
      if (s.kind === "rest") assert.deepEqual(found!.params[s.name], ["a", "b"]);
    }
  }
});

test("static segments win over [param], which wins over [...rest]; unknown paths reach the catch-all", () => {
  const table = apiRoutes({
    "/api/v1/payments/[id]/route": "p-id.js",
    "/api/v1/payments/search/route": "p-search.js",
    "/api/v1/payments/route": "p.js",
    "/api/v1/[...path]/route": "rest.js",
  });
  assert.equal(matchRoute(table, ["api", "v1", "payments", "search"])?.route.file, "p-search.js");
  assert.equal(matchRoute(table, ["api", "v1", "payments", "tx_1"])?.route.file, "p-id.js");
  assert.equal(matchRoute(table, ["api", "v1", "payments"])?.route.file, "p.js");
  assert.deepEqual(matchRoute(table, ["api", "v1", "payments", "tx_1", "nope"])?.params, { path: ["payments", "tx_1", "nope"] });
  assert.equal(matchRoute(table, ["api", "v1", "nothing"])?.route.file, "rest.js");
  assert.equal(matchRoute(table, ["api", "v1"]), null);
});

test("the buyer pages' route files are the page table, reached by their paths; their other routes stay with Next", () => {
  const all = { ...manifest, ...["checkout", "pay", "c", "qr"].reduce((m, d) => ({ ...m, ...manifestOfRouteFiles(`app/${d}`) }), {}) };
  const pages = apiRoutes(all, true);
  assert.deepEqual(pages.map((r) => r.page).sort(), ["/c/[txId]/result/route", "/checkout/[token]/route", "/pay/[provider]/[txId]/route", "/pay/mandate/[token]/route", "/pay/sandbox/[txId]/route", "/qr/[token]/route"]);
  assert.equal(matchRoute(pages, ["pay", "sandbox", "tx_1"])?.route.page, "/pay/sandbox/[txId]/route");
  assert.deepEqual(matchRoute(pages, ["pay", "pagosur", "tx_1"])?.params, { provider: "pagosur", txId: "tx_1" });
  assert.equal(matchRoute(pages, ["checkout", "cs_1", "select"]), null);
  assert.equal(matchRoute(pages, ["qr", "tok", "status"]), null);
  assert.deepEqual(apiRoutes(all).map((r) => r.page).sort(), Object.keys(manifest).sort());
});

test("a plain request reads the headers, URL, body and signal a Web Request of the same request gives", async () => {
  const http = await import("node:http");
  const { PlainRequest } = await import("./fast-path/plain-request.ts");
  const { toRequest } = await import("./fast-path/web-request.ts");
  const names = ["authorization", "Content-Type", "x-lp-peer-address", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "accept", "x-repeated", "idempotency-key", "absent"];
  const seen: Array<{ plain: unknown; web: unknown }> = [];
  const server = http.createServer(async (req, res) => {
    const plain = new PlainRequest(req, `http://${req.headers.host}${req.url}`);
    const web = toRequest(req, new AbortController().signal, null);
    const plainBody = plain.body ? await new Response(plain.body).text() : null;
    seen.push({
      plain: { url: plain.url, method: plain.method, headers: names.map((n) => plain.headers.get(n)), has: plain.headers.has("accept"), body: plainBody, aborted: plain.signal.aborted },
      web: { url: web.url, method: web.method, headers: names.map((n) => web.headers.get(n)), has: web.headers.has("accept"), body: plainBody, aborted: web.signal.aborted },
    });
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const send = (method: string, headers: Record<string, string | string[]>, body?: string) =>
    new Promise<void>((resolve, reject) => {
      const r = http.request({ host: "127.0.0.1", port, method, path: "/api/v1/payments?limit=5&q=%C3%A9", headers }, (res) => (res.resume(), res.on("end", resolve)));
      r.on("error", reject);
      r.end(body);
    });
  try {
    // A client's own peer header is dropped and the socket's stamped; repeated headers join with ", ".
    await send("POST", { authorization: "Bearer sk_test_x", "content-type": "application/json", "x-lp-peer-address": "6.6.6.6", "x-repeated": ["a", "b"], accept: "*/*" }, '{"amount":1}');
    // Forwarded headers the client sent are kept as sent (client-ip.ts decides whom to believe).
    await send("GET", { "x-forwarded-for": "10.0.0.9", "x-forwarded-host": "shop.example", "x-forwarded-proto": "https", "x-real-ip": "10.0.0.8" });
  } finally {
    server.close();
  }
  assert.equal(seen.length, 2);
  for (const { plain, web } of seen) assert.deepEqual(plain, web);
  assert.equal((seen[0]!.plain as { headers: unknown[] }).headers[2], "127.0.0.1");
  assert.equal((seen[0]!.plain as { body: string }).body, '{"amount":1}');
});
