// Traces over real HTTP: a server started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local
// OTLP/HTTP receiver started here sends it the spans of an API request (server span, PostgreSQL
// queries of the same trace), its log lines carry that trace id, and its outgoing webhook calls
// carry a W3C `traceparent`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { api, extraServer, ownDatabase, tsx, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";

type Span = { traceId: string; spanId: string; name: string; kind: number; attributes?: { key: string; value: Record<string, unknown> }[] };
const spans: Span[] = [];
const webhookHeaders: http.IncomingHttpHeaders[] = [];
const providerHeaders: http.IncomingHttpHeaders[] = [];
let otlp: http.Server;
let hooks: http.Server;
let psp: http.Server;

async function listen(s: http.Server) {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const close = (s: http.Server) => (s.closeAllConnections(), new Promise((r) => s.close(r)));
const hex = (id: string) => (/^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, "base64").toString("hex"));

let otlpUrl = "";
let pspUrl = "";
let hookUrl = "";
before(async () => {
  otlp = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/v1/traces" && (req.headers["content-type"] ?? "").includes("json")) {
        const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
        for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, traceId: hex(s.traceId), spanId: hex(s.spanId) });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  hooks = http.createServer((req, res) => (webhookHeaders.push(req.headers), req.resume(), req.on("end", () => res.end("ok"))));
  // A recording proxy in front of the simulated PSP: what the service sends a provider.
  const upstream = process.env.PROVIDER_PAGOSUR_URL!;
  psp = http.createServer((req, res) => {
    providerHeaders.push(req.headers);
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k))) as Record<string, string>;
      const r = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  otlpUrl = await listen(otlp);
  hookUrl = `${await listen(hooks)}/hooks`;
  pspUrl = await listen(psp);
});
after(async () => {
  await close(otlp);
  await close(hooks);
  await close(psp);
  await db().$disconnect();
});

test("spans of a request reach the OTLP receiver; logs and outgoing calls carry the trace", async () => {
  // A database of its own, so this traced server is the only one running its jobs (webhooks).
  const own = await ownDatabase("lp_tracing");
  tsx(["scripts/migrate.ts", "deploy"], { DATABASE_URL: own.url });
  const m = JSON.parse(tsx(["scripts/cli.ts", "merchant:create", "--name", "Traced", "--tier", "premium", "--json"], { DATABASE_URL: own.url }));
  tsx(["scripts/cli.ts", "fx:set", "--currency", "MXN", "--rate", "18.20"], { DATABASE_URL: own.url });
  const server = await extraServer(
    { ...(process.env as Record<string, string>), DATABASE_URL: own.url, PROVIDER_PAGOSUR_URL: pspUrl, OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_BSP_SCHEDULE_DELAY: "100", OTEL_SERVICE_NAME: "lp-test", LOG_LEVEL: "info" },
    { captureOutput: true },
  );
  try {
    const key = m.sandbox.secretKey;
    const hook = await api("/webhooks", { key, base: server.url, body: { url: hookUrl, events: ["payment.completed"] } });
    assert.equal(hook.status, 200, hook.text);
    const p = await api("/payments", { key, base: server.url, body: { amount: 10, paymentMethodId: "sbx_card" } });
    assert.equal(p.status, 200, p.text);
    await api(`/payments/${p.body.transactionId}/simulate`, { key, base: server.url, body: { action: "paid" } });

    const request = await waitFor(async () => spans.find((s) => s.kind === 2 && s.name.includes("POST") && (s.attributes ?? []).some((a) => String(Object.values(a.value)[0]).includes("/api/v1/payments"))), "the server span of POST /api/v1/payments", 20_000);
    if (process.env.DEBUG_SPANS) setTimeout(() => console.log(JSON.stringify(spans.map((s) => [s.traceId.slice(0, 6), s.kind, s.name, (s.attributes ?? []).map((a) => a.key).slice(0, 4)]))), 3000);
    await waitFor(async () => spans.some((s) => s.traceId === request.traceId && (s.attributes ?? []).some((a) => a.key === "db.system" || a.key === "db.system.name")), "a PostgreSQL span in the same trace", 20_000);
    // The request's log line names the trace.
    await waitFor(async () => server.output().split("\n").some((l) => l.includes('"msg":"request"') && l.includes(request.traceId)), "the request log line with its trace id");
    // The webhook call out carries a traceparent.
    const delivered = await waitFor(async () => webhookHeaders.find((h) => typeof h.traceparent === "string"), "a webhook delivery with traceparent", 20_000);
    assert.match(String(delivered.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    // A production charge: the call to the provider carries the request's trace.
    const live = await api("/payments", { key: m.production.secretKey, base: server.url, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: "juan@example.com", documentId: "GODE561231GR8" } });
    assert.equal(live.status, 200, live.text);
    const call = await waitFor(async () => providerHeaders.find((h) => typeof h.traceparent === "string"), "a provider call with traceparent");
    const traceId = String(call.traceparent).split("-")[1]!;
    await waitFor(async () => spans.some((s) => s.traceId === traceId && s.kind === 2), "the provider call inside the request's trace", 20_000);
  } finally {
    await server.stop();
    await own.drop();
  }
});
