// The sandbox simulate endpoints honour Idempotency-Key like every money-moving POST: the key is
// bound in the transaction of the move it protects, so a retry after a lost answer (lost on the
// wire, or lost with a process that died after its commit) gets the first answer again, never
// a 400/409 for a move that already happened, and never a second move.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

type M = Awaited<ReturnType<typeof newMerchant>>;

/** Leaves the key's record as a process killed right after its commit leaves it. */
async function loseStoredAnswer(merchantId: string, idem: string) {
  const n = await db().idempotencyRecord.updateMany({
    where: { merchantId, idempotencyKey: idem, state: "completed", resourceId: { not: null } },
    data: { state: "committed", responseStatus: null, responseBody: null, lockedUntil: new Date(Date.now() - 1000) },
  });
  assert.equal(n.count, 1, "the simulate request bound its record to what it moved");
}

/** The first call, a retry (answer lost on the wire), then a retry after the stored answer was lost too. */
async function retriedTwice(m: M, path: string, body: unknown, effects: () => Promise<number>) {
  const key = m.sandbox.secretKey;
  const idem = randomUUID();
  const first = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.equal(first.status, 200, `${path}: ${first.text}`);
  const moved = await effects();
  const again = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.equal(again.status, 200, `${path} retried: ${again.text}`);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(again.body, first.body);
  await loseStoredAnswer(m.merchantId, idem);
  const third = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.equal(third.status, 200, `${path} after a crash: ${third.text}`);
  assert.equal(third.headers.get("idempotent-replayed"), "true");
  assert.equal(await effects(), moved, `${path} moved again`);
  return { first: first.body, afterCrash: third.body };
}

test("payments/{id}/simulate: a retry replays the first answer, also after a crash between commit and answer", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount: 30, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  const id = p.body.transactionId;
  const postings = () => db().ledgerPosting.count({ where: { transactionId: id } });
  const r = await retriedTwice(m, `/payments/${id}/simulate`, { action: "paid" }, postings);
  assert.deepEqual(r.afterCrash, r.first);
  assert.deepEqual(r.first.eventsFired, ["payment.completed", "payment.captured"]);
  const cb = await retriedTwice(m, `/payments/${id}/simulate`, { action: "chargeback" }, () => db().claim.count({ where: { transactionId: id } }));
  assert.deepEqual(cb.afterCrash, cb.first);
});

test("claims/{id}/simulate: a retry of a decided chargeback replays it instead of 409 claim_already_resolved", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount: 40, paymentMethodId: "sbx_card" } });
  const id = p.body.transactionId;
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
  const claim = (await db().claim.findFirstOrThrow({ where: { transactionId: id, kind: "chargeback" } })).id;
  const r = await retriedTwice(m, `/claims/${claim}/simulate`, { action: "lost" }, () => db().ledgerPosting.count({ where: { claimId: claim } }));
  assert.equal(r.first.claim.status, "lost");
  assert.deepEqual(r.afterCrash, r.first);
});

test("payout/topups/{id}/simulate: a retried credit credits once", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const t = await api("/me/payout/topups", { key, body: { asset: "USDC", network: "POLYGON" } });
  assert.equal(t.status, 201, t.text);
  const id = t.body.topup.id;
  const r = await retriedTwice(m, `/me/payout/topups/${id}/simulate`, { amount: 25 }, () => db().ledgerPosting.count({ where: { merchantId: m.merchantId } }));
  assert.equal(r.first.topup.creditedUsd, 25);
  assert.equal(r.afterCrash.topup.creditedUsd, 25, "credited once");
  assert.deepEqual(r.afterCrash, r.first);
});
