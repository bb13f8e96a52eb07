// GET /metrics over real HTTP: behind its token, parsed by a Prometheus text-format parser, and
// its counters move with traffic (API requests by route and status, provider calls, webhook
// deliveries, job runs); the shared gauges (backlog, lag, ledger warnings, pool) are present.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { api, newMerchant, waitFor, API_URL, listenLocal } from "./helpers.ts";
import { db } from "@/lib/platform/db";

const TOKEN = process.env.METRICS_TOKEN!;
type Family = { name: string; type: string; metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[] };

async function scrape(): Promise<Map<string, Family>> {
  const r = await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await r.text()) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of a counter or gauge sample whose labels include `labels` (summed), or 0. */
function value(m: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const f = m.get(name);
  if (!f) return 0;
  return f.metrics.filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v)).reduce((sum, s) => sum + Number(s.value ?? s.count ?? 0), 0);
}

let receiver: http.Server;
let closeReceiver = async () => {};
let hookUrl = "";
before(async () => {
  receiver = http.createServer((req, res) => (req.resume(), req.on("end", () => res.end("ok"))));
  const served = await listenLocal(receiver);
  closeReceiver = served.close;
  hookUrl = `${served.base}/hooks`;
});
after(async () => {
  await closeReceiver();
  await db().$disconnect();
});

test("/metrics needs its token", async () => {
  assert.equal((await fetch(`${API_URL}/metrics`)).status, 401);
  assert.equal((await fetch(`${API_URL}/metrics`, { headers: { authorization: "Bearer wrong-token-of-some-length" } })).status, 401);
});

test("counters move with traffic; shared gauges are present", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  await api("/webhooks", { key, body: { url: hookUrl, events: ["payment.completed"] } });
  const before = await scrape();
  const created = await api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card" } });
  assert.equal(created.status, 200, created.text);
  await api("/payments/tx_nope", { key });
  await api(`/payments/${created.body.transactionId}/simulate`, { key, body: { action: "paid" } });

  const after = await waitFor(async () => {
    const s = await scrape();
    return value(s, "lp_webhook_deliveries_total", { outcome: "succeeded" }) > value(before, "lp_webhook_deliveries_total", { outcome: "succeeded" }) ? s : null;
  }, "a webhook delivery counted");
  const grew = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
  assert.ok(grew("lp_http_requests_total", { route: "/payments", method: "POST", status: "200" }) >= 1);
  assert.ok(grew("lp_http_requests_total", { route: "/payments/{id}", method: "GET", status: "404" }) >= 1, "by route template and status");
  assert.ok(grew("lp_provider_calls_total", { provider: "sandbox", operation: "createCharge", outcome: "accepted" }) >= 1);
  assert.ok(value(after, "lp_job_runs_total", { job: "deliver-webhooks", outcome: "ok" }) > 0);
  assert.equal(after.get("lp_http_request_duration_seconds")?.type, "HISTOGRAM");
  for (const g of ["lp_webhook_backlog", "lp_webhook_lag_seconds", "lp_job_lag_seconds", "lp_scheduled_actions_due", "lp_events_unfanned", "lp_ledger_warnings"]) assert.ok(after.has(g), g);
  assert.ok(value(after, "lp_db_pool_connections", { state: "total" }) >= 1);
  assert.equal(value(after, "lp_ledger_warnings"), 0);
  assert.ok(after.has("lp_process_resident_memory_bytes"), "default process metrics");
});
