// Crypto top-ups over real HTTP (decisions.md "Crypto top-ups of the payout balance"): sandbox
// synthetic addresses that pass the networks' own checks, simulate credits the payout USD
// balance once; production addresses from the operator's pool (CLI), an empty pool 503
// topup_address_unavailable; signed custody notices: too few confirmations credit nothing, the
// same txHash reported five times at once credits once, a bad signature is refused; expiry on
// read; list, get, 404s, both environments.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import bs58check from "bs58check";
import { api, assertEnvelope, newMerchant, postCustodyNotice, tsx } from "./helpers.ts";
import { db } from "@/lib/db";
import { isValidAddress } from "@/lib/crypto-assets/addresses";

after(() => db().$disconnect());

const usdAvailable = async (key: string) => (await api("/me/payout/balance", { key })).body.balances.find((b: any) => b.currency === "USD").available as number;
const tronAddress = () => bs58check.encode(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]));

/** A deposit notice of the custody provider, each with its own noticeId (distinct reports of a transfer). */
function notify(body: Record<string, unknown>, secret = process.env.CUSTODY_SECRET!) {
  return postCustodyNotice({ type: "deposit", ...body }, { secret });
}

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

test("production: the operator's pool (empty: 503); signed notices credit once the confirmations are reached, a txHash once", async () => {
  const m = await newMerchant();
  const key = m.production.secretKey;
  // Each run has its own database: the TRON pool starts empty.
  assertEnvelope(await api("/me/payout/topups", { key, body: { asset: "USDT", network: "TRON" } }), "topup_address_unavailable", 503);

  const address = tronAddress();
  const line = tsx(["scripts/cli.ts", "topup:addresses", "--network", "TRON", "--address", address, "--json"], {});
  assert.deepEqual(JSON.parse(line), { added: 1, skipped: 0 });
  const made = await api("/me/payout/topups", { key, body: { asset: "USDT", network: "TRON" } });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.body.topup.address, address);
  // The address is taken: the next request finds the pool empty again.
  assertEnvelope(await api("/me/payout/topups", { key, body: { asset: "USDT", network: "TRON" } }), "topup_address_unavailable", 503);

  const before = await usdAvailable(key);
  const txHash = randomBytes(32).toString("hex");
  const transfer = { address, network: "TRON", txHash, amount: "120.50" };
  const early = await notify({ ...transfer, confirmations: 3 });
  const earlyBody = early.body;
  assert.equal(earlyBody.credited, false, JSON.stringify(earlyBody));
  assert.equal(await usdAvailable(key), before);
  // Wrong signature: refused, nothing credited.
  const forged = await notify({ ...transfer, confirmations: 40 }, "not-the-secret-at-all-0123");
  assert.equal(forged.status, 401);
  assert.equal(forged.body.error.code, "invalid_signature");
  // Five reports of the same confirmed transfer at once: credited once.
  const answers = await Promise.all(Array.from({ length: 5 }, () => notify({ ...transfer, confirmations: 25 })));
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
  const credits = answers.map((a) => a.body.credited);
  assert.equal(credits.filter(Boolean).length, 1);
  assert.equal(await usdAvailable(key), before + 120.5);
  assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "topup_credited" } }), 1);
  const t = (await api(`/me/payout/topups/${made.body.topup.id}`, { key })).body.topup;
  assert.equal(t.status, "credited");
  assert.equal(t.txHash, txHash);
  assert.equal(t.creditedUsd, 120.5);
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
  // An address nobody was given, and a bad body.
  assert.equal((await notify({ ...transfer, address: tronAddress(), confirmations: 30 })).body.credited, false);
  assert.equal((await notify({ address, network: "TRON" })).status, 400);
});
