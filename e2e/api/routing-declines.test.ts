// Decline classification over real HTTP (issue 22, decisions.md "Declines and routing"): the
// simulated providers answer declines in their own words (codes, Spanish messages); the seeded
// decline table maps them to a unified code and a decision. A hard decline makes one attempt and
// fails the payment with its declineCode (402); a soft one cascades; an unmapped one is soft and
// counted in /metrics; the operator CLI edits the table and servers pick the change up.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, tsx, waitFor, API_URL, PSP, behave } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

const email = () => `decl-${randomUUID().slice(0, 8)}@example.com`;
const spei = (buyerEmail: string) => ({ amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyerEmail, documentId: "GODE561231GR8" });

let key: string;
before(async () => {
  await setRate("MXN", "18.20", "test");
  key = (await newMerchant()).production.secretKey;
});
after(() => db().$disconnect());

async function unmappedCount(provider: string, code: string): Promise<number> {
  const text = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith("lp_declines_unmapped_total{") && l.includes(`provider="${provider}"`) && l.includes(`code="${code}"`));
  return line ? Number(line.split(" ").pop()) : 0;
}

test("a hard decline (pagosur's ISO code 51) makes one attempt: 402 insufficient_funds, the payment failed with its declineCode, payment.failed says so", async () => {
  const e = email();
  await behave("pagosur", "decline", e, "insufficient_funds");
  const r = await api("/payments", { key, body: spei(e) });
  assertEnvelope(r, "insufficient_funds", 402);
  assert.equal(r.body.error.decline_code, "insufficient_funds");
  const attempts = r.body.error.details.attempts;
  assert.equal(attempts.length, 1, "no other provider was tried");
  assert.deepEqual([attempts[0].provider, attempts[0].outcome, attempts[0].reason, attempts[0].declineCode, attempts[0].decision], ["pagosur", "declined", "51", "insufficient_funds", "stop"]);
  const id = r.body.error.details.transactionId;
  assert.ok(id, "the failed payment is named");
  const got = await api(`/payments/${id}`, { key });
  assert.equal(got.status, 200);
  assert.equal(got.body.status, "failed");
  assert.equal(got.body.declineCode, "insufficient_funds");
  assert.equal(got.body.attempts.length, 1);
  assert.equal(got.body.attempts[0].routingVersion, 0);
  assert.equal(got.body.attempts[0].routingReason, "fallback");
  const event = await waitFor(() => db().event.findFirst({ where: { type: "payment.failed", payload: { path: ["data", "object", "id"], equals: id } } }), "payment.failed");
  assert.equal((event.payload as any).data.object.declineCode, "insufficient_funds");
  // The charges of the other providers: none made for this payment.
  for (const p of ["andespay", "rapidpay"] as const) assert.equal((await fetch(`${PSP[p]}/_control/charges/${id}`)).status, 404);
});

test("a hard decline in a provider's message (rapidpay, Spanish) after two soft failures: three attempts, 402 card_declined suspected_fraud", async () => {
  const e = email();
  await behave("pagosur", "error", e);
  await behave("andespay", "decline", e, "rate_limited");
  await behave("rapidpay", "decline", e, "suspected_fraud");
  const r = await api("/payments", { key, body: spei(e) });
  assertEnvelope(r, "card_declined", 402);
  assert.equal(r.body.error.decline_code, "suspected_fraud");
  assert.deepEqual(
    r.body.error.details.attempts.map((a: any) => [a.provider, a.declineCode, a.decision]),
    [["pagosur", "provider_unavailable", "retry_next"], ["andespay", "provider_rate_limited", "retry_next"], ["rapidpay", "suspected_fraud", "stop"]],
  );
});

test("a soft decline cascades: the next provider takes the charge, the attempt keeps its code", async () => {
  const e = email();
  await behave("pagosur", "decline", e, "rate_limited");
  const r = await api("/payments", { key, body: spei(e) });
  assert.equal(r.status, 200, r.text);
  const got = await api(`/payments/${r.body.transactionId}`, { key });
  assert.deepEqual(got.body.attempts.map((a: any) => [a.provider, a.outcome, a.declineCode, a.decision]), [["pagosur", "declined", "provider_rate_limited", "retry_next"], ["andespay", "accepted", null, null]]);
  assert.equal(got.body.declineCode, null);
  assert.equal(got.body.status, "pending");
});

test("retry_same_later (andespay's DAILY_LIMIT) does not cascade either: 402 card_declined limit_exceeded", async () => {
  const e = email();
  await behave("pagosur", "error", e);
  await behave("andespay", "decline", e, "limit_exceeded");
  const r = await api("/payments", { key, body: spei(e) });
  assertEnvelope(r, "card_declined", 402);
  assert.equal(r.body.error.decline_code, "limit_exceeded");
  assert.equal(r.body.error.details.decision, "retry_same_later");
  assert.equal(r.body.error.details.attempts.length, 2);
});

test("every provider soft: 422 cascade_exhausted carrying the last declineCode", async () => {
  const e = email();
  for (const p of ["pagosur", "andespay", "rapidpay"] as const) await behave(p, "decline", e, "rate_limited");
  const r = await api("/payments", { key, body: spei(e) });
  assertEnvelope(r, "cascade_exhausted", 422);
  assert.equal(r.body.error.details.declineCode, "provider_rate_limited");
  assert.equal(r.body.error.details.attempts.length, 3);
});

test("an unmapped code is soft and counted in /metrics; the operator maps it with the CLI and the server follows", async () => {
  const before = await unmappedCount("pagosur", "N7");
  const e = email();
  await behave("pagosur", "decline", e, "unmapped");
  const r = await api("/payments", { key, body: spei(e) });
  assert.equal(r.status, 200, r.text);
  const got = await api(`/payments/${r.body.transactionId}`, { key });
  assert.deepEqual([got.body.attempts[0].reason, got.body.attempts[0].declineCode, got.body.attempts[0].decision], ["N7", "unmapped_decline", "retry_next"]);
  assert.equal(await unmappedCount("pagosur", "N7"), before + 1);

  const env = { DATABASE_URL: process.env.DATABASE_URL! };
  const set = JSON.parse(tsx(["scripts/cli.ts", "decline:set", "--provider", "pagosur", "--code", "N7", "--maps-to", "suspected_fraud", "--json"], env));
  assert.deepEqual([set.declineCode, set.decision], ["suspected_fraud", "stop"]);
  try {
    const listed = JSON.parse(tsx(["scripts/cli.ts", "decline:list", "--provider", "pagosur", "--json"], env));
    assert.ok(listed.rules.some((x: any) => x.match === "N7" && x.declineCode === "suspected_fraud"));
    // The server drops its cached table on the CLI's NOTIFY.
    await waitFor(async () => {
      const e2 = email();
      // A simulator's idle keep-alive socket may be closed under us: that try is just repeated.
      if (!(await behave("pagosur", "decline", e2, "unmapped").then(() => true, () => false))) return false;
      const again = await api("/payments", { key, body: spei(e2) });
      return again.status === 402 && again.body.error.decline_code === "suspected_fraud";
    }, "the new row applies", 30_000);
  } finally {
    tsx(["scripts/cli.ts", "decline:delete", "--provider", "pagosur", "--code", "N7"], env);
  }
  assert.throws(() => tsx(["scripts/cli.ts", "decline:set", "--provider", "pagosur", "--code", "X1", "--maps-to", "nonsense"], env), /--maps-to must be one of/);
});
