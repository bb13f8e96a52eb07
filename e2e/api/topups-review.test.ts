// Held for review in production over real HTTP, on the POLYGON pool (decisions.md "Crypto top-ups
// of the payout balance"): every confirmed transfer is credited or held (below the minimum, after
// the first, late, another asset), EVM addresses match in any case, notices are signed with the
// inbound notice secret only; amounts and confirmations beyond the bound are 400, never a 500. One
// file: the tests share the pool.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { API_URL, api, assertEnvelope, newMerchant, postCustodyNotice } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { loadTopupAddresses } from "@/lib/topups/topups";
import { usdAvailable, notify, senderOf, evmHash, transfers, checksummed } from "./topups-fixtures.ts";

after(() => db().$disconnect());

test("production: every confirmed transfer is credited or held for review, never dropped; EVM addresses in any case; another asset refused; the outbound secret cannot sign notices", async () => {
  const address = checksummed();
  const late = checksummed();
  const expired = checksummed();
  await loadTopupAddresses("POLYGON", [address, late, expired]);
  const m = await newMerchant();
  const key = m.production.secretKey;
  const made = await api("/me/payout/topups", { key, body: { asset: "USDT", network: "POLYGON" } });
  assert.equal(made.status, 201, made.text);
  const t = made.body.topup;
  assert.equal(t.address, address);
  const before = await usdAvailable(key);
  // The custody provider reports addresses in lower case: the same address.
  const to = { address: address.toLowerCase(), network: "POLYGON" };
  const [h0, h1, h2, h3] = [evmHash(), evmHash(), evmHash(), evmHash()];

  // Signed with the secret our calls to the provider use (not the notice secret): refused.
  assertEnvelope(await notify({ ...to, txHash: h2, amount: "75.25", confirmations: 130 }, process.env.CUSTODY_SECRET!), "invalid_signature", 401);
  // USDC to a USDT top-up: refused (not credited 1:1), and held so an operator sees it.
  const usdc = await notify({ ...to, asset: "USDC", txHash: h0, amount: "40", confirmations: 130 });
  assertEnvelope(usdc, "invalid_request", 400);
  assert.equal(usdc.body.error.param, "asset");
  assert.equal(await usdAvailable(key), before);
  // Below Polygon's minimum (1 USD), confirmed: held.
  const small = await notify({ ...to, txHash: h1, amount: "0.50", confirmations: 130 });
  assert.equal(small.status, 200, small.text);
  assert.deepEqual([small.body.credited, small.body.held], [false, "below_minimum"]);
  // Seen before its confirmations: nothing yet; confirmed: credited.
  const early = await notify({ ...to, txHash: h2, amount: "75.25", confirmations: 5 });
  assert.deepEqual([early.body.credited, early.body.held], [false, undefined]);
  const credited = await notify({ ...to, txHash: h2, amount: "75.25", confirmations: 130 });
  assert.deepEqual([credited.body.credited, credited.body.held], [true, undefined], credited.text);
  assert.equal(await usdAvailable(key), before + 75.25);
  // A second transfer to the same address: held, not lost and not credited.
  const second = await notify({ ...to, txHash: h3, amount: "10", confirmations: 130 });
  assert.deepEqual([second.body.credited, second.body.held], [false, "after_first"]);
  // The credited transfer reported again: nothing more.
  assert.equal((await notify({ ...to, txHash: h2, amount: "75.25", confirmations: 200 })).body.credited, false);
  assert.equal(await usdAvailable(key), before + 75.25);
  const rows = await transfers(t.id);
  assert.deepEqual(
    Object.fromEntries(rows.map((r) => [r.txHash, [r.status, r.holdReason, r.asset]])),
    { [h0]: ["held", "asset_mismatch", "USDC"], [h1]: ["held", "below_minimum", "USDT"], [h2]: ["credited", null, "USDT"], [h3]: ["held", "after_first", "USDT"] },
  );
  const shown = (await api(`/me/payout/topups/${t.id}`, { key })).body.topup;
  assert.deepEqual([shown.status, shown.creditedUsd, shown.txHash], ["credited", 75.25, h2]);

  // First seen before the top-up expired, confirmed after: it arrived in time, credited.
  const other = await newMerchant();
  const u = (await api("/me/payout/topups", { key: other.production.secretKey, body: { asset: "USDT", network: "POLYGON" } })).body.topup;
  assert.equal(u.address, late);
  const h4 = evmHash();
  assert.equal((await notify({ address: late, network: "POLYGON", txHash: h4, amount: "20", confirmations: 1 })).body.credited, false);
  const seen = (await db().topupTransfer.findUniqueOrThrow({ where: { network_txHash_logIndex: { network: "POLYGON", txHash: h4, logIndex: 0 } } })).firstSeenAt;
  await db().topup.update({ where: { id: u.id }, data: { expiresAt: new Date(seen.getTime() + 1) } });
  assert.equal((await notify({ address: late, network: "POLYGON", txHash: h4, amount: "20", confirmations: 128 })).body.credited, true);
  // First seen after expiry: held for review, the top-up still expired.
  const third = await newMerchant();
  const v = (await api("/me/payout/topups", { key: third.production.secretKey, body: { asset: "USDT", network: "POLYGON" } })).body.topup;
  assert.equal(v.address, expired);
  await db().topup.update({ where: { id: v.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  const tooLate = await notify({ address: expired, network: "POLYGON", txHash: evmHash(), amount: "30", confirmations: 200 });
  assert.deepEqual([tooLate.body.credited, tooLate.body.held], [false, "expired"]);
  assert.equal((await api(`/me/payout/topups/${v.id}`, { key: third.production.secretKey })).body.topup.status, "expired");
  assert.equal(await usdAvailable(third.production.secretKey), 0);

  // One notice (one noticeId) delivered five times at once: applied once, the others answered as replays.
  const onceHash = evmHash();
  const once = { type: "deposit", noticeId: `cn_${randomBytes(8).toString("hex")}`, asset: "USDT", ...to, txHash: onceHash, logIndex: 0, from: senderOf("POLYGON", onceHash), amount: "5", confirmations: 130 };
  const five = await Promise.all(Array.from({ length: 5 }, () => postCustodyNotice(once)));
  assert.deepEqual(five.map((r) => r.status), [200, 200, 200, 200, 200]);
  assert.equal(five.filter((r) => !r.body.duplicate).length, 1, JSON.stringify(five.map((r) => r.body)));
  assert.equal(await db().custodyNotice.count({ where: { id: once.noticeId } }), 1);

  // Held transfers are counted for operators.
  const metrics = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  const held = Number(metrics.match(/^lp_topup_transfers_held (\d+)/m)?.[1]);
  assert.ok(held >= 5, `lp_topup_transfers_held ${held}`);
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
});

test("production: a custody deposit notice with an amount or confirmations beyond the bound is 400 invalid_request on every retry, never a 500 (issue 38, point 6)", async () => {
  const address = checksummed();
  await loadTopupAddresses("POLYGON", [address]);
  const m = await newMerchant();
  const key = m.production.secretKey;
  const t = (await api("/me/payout/topups", { key, body: { asset: "USDT", network: "POLYGON" } })).body.topup;
  assert.equal(t.address, address);
  const to = { address, network: "POLYGON", txHash: evmHash() };
  const cases = [
    [{ amount: "92233720368547758.08", confirmations: 130 }, "amount"], // 2^63 cents
    [{ amount: "100000000000000000000", confirmations: 130 }, "amount"],
    [{ amount: "10000000000000.01", confirmations: 130 }, "amount"], // one cent above the bound
    [{ amount: "20", confirmations: 2 ** 31 }, "confirmations"], // beyond the column's 32 bits
  ] as const;
  for (const [body, param] of cases) {
    const noticeId = `cn_${randomBytes(8).toString("hex")}`;
    for (let retry = 0; retry < 2; retry++) {
      const r = await postCustodyNotice({ type: "deposit", noticeId, asset: "USDT", ...to, logIndex: 0, from: checksummed(), ...body });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param, JSON.stringify(body));
    }
  }
  assert.equal((await transfers(t.id)).length, 0, "nothing taken");
  assert.equal(await usdAvailable(key), 0);
});
