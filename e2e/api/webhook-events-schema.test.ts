// Typed events: the OpenAPI document's `webhooks` describe every event type the service can emit
// (a type added to EVENT_TYPES, or emitted anywhere in lib/, without its schema fails here), and
// real deliveries of every type, received by a local endpoint subscribed to `*`, match their
// schema exactly (no field missing, none extra), as GET /events answers them too.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { api, newMerchant, waitFor, listenLocal } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { EVENT_TYPES, type EventType } from "@/lib/platform/outbox/emit";
import { runMandates } from "@/lib/mandates/send-due-charges";
import { EVENT_SCHEMAS, anyEvent, eventComponentName } from "@/lib/events/payloads";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { clabeCheckDigit } from "@/lib/rails/document-rules";

after(() => db().$disconnect());

const DAY = 86_400_000;
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** Every `type: "<noun>.<verb>"` an event is built with anywhere in lib/ (emitters and transitions). */
function emittedInSource(): Set<string> {
  const root = path.resolve(import.meta.dirname, "../../lib");
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (name === "generated" || name.endsWith(".test.ts")) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) {
        const text = readFileSync(p, "utf8");
        for (const m of text.matchAll(/\b(?:type|event):\s*"([a-z_]+\.[a-z_]+)"/g)) found.add(m[1]!);
        for (const m of text.matchAll(/EventType\[\]\s*=\s*\[([^\]]*)\]/g)) for (const t of m[1]!.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) found.add(t[1]!);
      }
    }
  };
  walk(root);
  return found;
}

test("the document's webhooks describe every event type the service emits, each with its schema", async () => {
  const doc = (await api("/openapi.json")).body;
  const hooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
  assert.deepEqual(Object.keys(hooks).sort(), [...EVENT_TYPES].sort(), "one webhook per event type");
  for (const type of EVENT_TYPES) {
    const ref = hooks[type]!.post.requestBody.content["application/json"]!.schema.$ref;
    assert.equal(ref, `#/components/schemas/${eventComponentName(type)}`);
    const schema = doc.components.schemas[eventComponentName(type)];
    assert.equal(schema.properties.type.const, type, `${type}: its schema names its type`);
    assert.ok(schema.properties.data.properties.object.$ref, `${type}: data.object is a named resource`);
  }
  // Emitted somewhere but not a declared type: neither typed nor documented.
  const emitted = [...emittedInSource()].filter((t) => /^(payment|payout|claim|chargeback|settlement|withdrawal|refund|deposit|topup|checkout|qr)\./.test(t));
  const undocumented = emitted.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  assert.deepEqual(undocumented, [], "event types emitted in lib/ without a schema in lib/events/payloads.ts");
  // GET /events items are the same union.
  assert.equal(doc.paths["/events"].get.responses["200"].content["application/json"].schema.properties.data.items.$ref, "#/components/schemas/Event");
  assert.equal(doc.components.schemas.Event.oneOf.length, EVENT_TYPES.length);
  assert.equal(doc.components.schemas.Event.discriminator.propertyName, "type");
});

/** Parses with the type's schema; equal after parsing means nothing was missing or extra. */
function assertMatches(type: EventType, body: unknown) {
  const parsed = EVENT_SCHEMAS[type].safeParse(body);
  assert.ok(parsed.success, `${type}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 5))}`);
  assert.deepEqual(parsed.data, body, `${type}: a field the schema does not describe`);
  assert.ok(anyEvent.safeParse(body).success);
}

test("a delivery of every event type validates against its schema, and GET /events lists them typed", async () => {
  const received: Array<{ type: string; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ type: String(req.headers["x-service-event"]), body });
      res.end("ok");
    });
  });
  const served = await listenLocal(receiver);
  try {
    const m = await newMerchant({ tier: "standard" });
    const key = m.sandbox.secretKey;
    const hook = await api("/webhooks", { key, body: { url: `${served.base}/hooks`, events: ["*"] } });
    assert.equal(hook.status, 200);
    // webhook.test is sent on request only (POST /webhooks/{id}/test), never by `*`.
    assert.equal((await api(`/webhooks/${hook.body.id}/test`, { key, body: {} })).status, 200);
    const pay = async (amount: number, action: string | null) => {
      const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
      assert.equal(p.status, 200, p.text);
      if (action) assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action } })).status, 200);
      return p.body.transactionId as string;
    };
    // payment.completed, payment.captured (sandbox), payment.failed, payment.refunded.
    const paid = await pay(300, "paid");
    await pay(20, "failed");
    const refunded = await pay(20, "paid");
    assert.equal((await api(`/payments/${refunded}/simulate`, { key, body: { action: "refunded" } })).status, 200);
    // chargeback.created, claim.opened, then claim.resolved when the merchant accepts the loss.
    const disputed = await pay(20, "paid");
    assert.equal((await api(`/payments/${disputed}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
    const claimId = (await db().claim.findFirstOrThrow({ where: { transactionId: disputed, kind: "chargeback" } })).id;
    const accepted = await api(`/claims/${claimId}/accept`, { key, body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    assert.ok(paid);

    // withdrawal.failed and withdrawal.completed from the settled balance, then settlement.closed and .pdf_ready.
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
    assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } })).status, 200);
    for (const action of ["failed", "completed"]) {
      const w = await api("/me/withdrawals", { key, body: { amountUsd: 20 } });
      assert.equal(w.status, 200, w.text);
      assert.equal((await api(`/me/withdrawals/${w.body.withdrawal.id}/simulate`, { key, body: { action } })).status, 200);
    }
    const run = await api("/settlements/run", { key, body: {} });
    assert.equal(run.status, 200, run.text);
    assert.ok(run.body.settlement, JSON.stringify(run.body));

    // payout.completed and payout.failed.
    assert.equal((await api("/me/payout/fund-sandbox", { key, body: { currency: "MXN", amount: 1000 } })).status, 200);
    const methods = (await api("/me/payout/methods", { key })).body;
    const spei = methods.items.find((x: { currency: string }) => x.currency === "MXN");
    for (const action of ["completed", "failed"]) {
      const sent = await api("/me/payout/send", {
        key,
        body: { methodId: spei.id, amount: 100, recipient: { name: "Carlos Ruiz", account: "00218001234567890" + clabeCheckDigit("00218001234567890"), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: "carlos@example.com" } },
      });
      assert.equal(sent.status, 200, sent.text);
      assert.equal((await api(`/me/payout/send/${sent.body.payout.id}/simulate`, { key, body: { action } })).status, 200);
    }

    // mandate.authorized, mandate.cancelled, mandate.rejected, mandate.expired.
    const startDate = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const mandate = async () => {
      const made = await api("/mandates", { key, body: { amount: 10, period: "monthly", startDate, customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" }, description: "Plano" } });
      assert.equal(made.status, 201, made.text);
      return made.body.mandate.id as string;
    };
    const authorized = await mandate();
    for (const action of ["authorize", "cancel_by_payer"]) assert.equal((await api(`/mandates/${authorized}/simulate`, { key, body: { action } })).status, 200);
    assert.equal((await api(`/mandates/${await mandate()}/simulate`, { key, body: { action: "reject" } })).status, 200);
    await mandate();
    assert.equal((await runMandates({ now: new Date(Date.now() + 2 * DAY), merchantId: m.merchantId })).expired, 1);

    const missing = () => EVENT_TYPES.filter((t) => !received.some((r) => r.type === t));
    await waitFor(async () => missing().length === 0, `deliveries of every type (missing: ${missing().join(", ")})`, 30_000).catch(() => {
      assert.deepEqual(missing(), [], "a delivery of every event type");
    });
    for (const r of received) assertMatches(r.type as EventType, JSON.parse(r.body));

    // GET /events answers the same bodies, typed by the same union.
    const listed = await api("/events?limit=100", { key });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.data.length >= EVENT_TYPES.length);
    for (const e of listed.body.data) assertMatches(e.type, e);
  } finally {
    await served.close();
  }
});
