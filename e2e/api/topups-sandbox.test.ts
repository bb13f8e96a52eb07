// Crypto top-ups in the sandbox over real HTTP (decisions.md "Crypto top-ups of the payout
// balance"): synthetic addresses that pass the networks' own checks, simulate credits the payout
// USD balance once; list, get, 404s.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import { usdAvailable } from "./topups-fixtures.ts";

after(() => db().$disconnect());

test("sandbox: a synthetic address per network, simulate credits the payout balance once; list, get, 404s", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  for (const network of ["TRON", "ETHEREUM", "POLYGON"] as const) {
    const r = await api("/me/payout/topups", { key, body: { asset: "USDT", network } });
    assert.equal(r.status, 201, r.text);
    assert.ok(isValidAddress(network, r.body.topup.address), `${network} ${r.body.topup.address}`);
  }
  const made = await api("/me/payout/topups", { key, body: { asset: "USDC", network: "POLYGON" } });
  const t = made.body.topup;
  assert.match(t.id, /^top_/);
  assert.equal(t.status, "awaiting_funds");
  assert.equal(t.minAmount, 1);
  assert.equal(t.confirmationsRequired, 128);
  assert.equal(Date.parse(t.expiresAt) - Date.parse(t.createdAt), 24 * 3_600_000);
  const before = await usdAvailable(key);
  const credited = await api(`/me/payout/topups/${t.id}/simulate`, { key, body: { amount: 25 } });
  assert.equal(credited.status, 200, credited.text);
  assert.equal(credited.body.topup.status, "credited");
  assert.equal(credited.body.topup.creditedUsd, 25);
  assert.equal(await usdAvailable(key), before + 25);
  // Again: already credited, nothing more.
  assert.equal((await api(`/me/payout/topups/${t.id}/simulate`, { key, body: { amount: 25 } })).body.topup.creditedUsd, 25);
  assert.equal(await usdAvailable(key), before + 25);
  assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "topup_credited" } }), 1);
  assertEnvelope(await api(`/me/payout/topups/${t.id}/simulate`, { key, body: { amount: "lots" } }), "amount_invalid", 400);

  const list = await api("/me/payout/topups", { key });
  assert.equal(list.body.data.length, 4);
  assert.equal(list.body.data[0].id, t.id);
  assert.deepEqual((await api("/me/payout/topups?status=credited", { key })).body.data.map((x: any) => x.id), [t.id]);
  assert.equal((await api(`/me/payout/topups/${t.id}`, { key })).body.topup.txHash, credited.body.topup.txHash);
  assertEnvelope(await api("/me/payout/topups/top_nope", { key }), "topup_not_found", 404);
  assertEnvelope(await api(`/me/payout/topups/${t.id}`, { key: m.production.secretKey }), "topup_not_found", 404);
  assertEnvelope(await api(`/me/payout/topups/${t.id}/simulate`, { key: m.production.secretKey, body: { amount: 1 } }), "production_key_refused", 400);
  assertEnvelope(await api("/me/payout/topups", { key, body: { asset: "DAI", network: "TRON" } }), "invalid_request", 400);

  // Unfunded past its 24 h: shown as expired.
  const old = (await api("/me/payout/topups", { key, body: { asset: "USDT", network: "TRON" } })).body.topup;
  await db().topup.update({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  assert.equal((await api(`/me/payout/topups/${old.id}`, { key })).body.topup.status, "expired");
  assert.deepEqual((await api("/me/payout/topups?status=expired", { key })).body.data.map((x: any) => x.id), [old.id]);
});
