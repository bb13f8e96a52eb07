// Crypto top-ups over real HTTP (decisions.md "Crypto top-ups of the payout balance"): sandbox
// synthetic addresses that pass the networks' own checks, simulate credits the payout USD
// balance once; production addresses from the operator's pool (CLI), an empty pool 503
// topup_address_unavailable; signed custody notices: too few confirmations credit nothing, the
// same transfer reported five times at once credits once, a bad signature is refused; transfers
// of one transaction (txHash, logIndex) to two merchants both credited in either order; expiry on
// read; list, get, 404s, both environments. Trust at the edges: pool addresses come back after
// expiry (or stay with the same merchant), so one key cannot drain the pool; every confirmed
// transfer is credited or held for review (below the minimum, after the first, late, another
// asset), EVM addresses match in any case; notices are signed with the inbound notice secret only;
// a recycled pool address holds what may be its previous holder's (a known sender, or soon after);
// a transfer to an address nobody was given, or to no address at all, is held with its reason.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import bs58check from "bs58check";
import { getAddress } from "viem";
import { API_URL, api, assertEnvelope, newMerchant, postCustodyNotice, tsx, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import { ADDRESS_QUARANTINE_MS, loadTopupAddresses } from "@/lib/topups/topups";
import { RECYCLED_HOLD_MS } from "@/lib/topups/schema";

after(() => db().$disconnect());

const usdAvailable = async (key: string) => (await api("/me/payout/balance", { key })).body.balances.find((b: any) => b.currency === "USD").available as number;
const tronAddress = () => bs58check.encode(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]));

/**
 * A deposit notice of the custody provider (USDT, the transaction's first transfer, from a sender
 * of its own unless named), each with its own noticeId (distinct reports of a transfer).
 */
function notify(body: Record<string, unknown>, secret = process.env.CUSTODY_NOTICE_SECRET!) {
  return postCustodyNotice({ type: "deposit", asset: "USDT", logIndex: 0, from: senderOf(String(body.network), String(body.txHash)), ...body }, { secret });
}
/** A well-formed sender address drawn from the transaction hash: every report of a transfer names the same one. */
function senderOf(network: string, txHash: string): string {
  const body = createHash("sha256").update(txHash).digest().subarray(0, 20);
  return network === "TRON" ? bs58check.encode(Buffer.concat([Buffer.from([0x41]), body])) : `0x${body.toString("hex")}`;
}
const evmHash = () => `0x${randomBytes(32).toString("hex")}`;
const transfers = (topupId: string) => db().topupTransfer.findMany({ where: { topupId }, orderBy: { firstSeenAt: "asc" } });
/** A fresh EVM address in its EIP-55 spelling (mixed case), as an operator loads it. */
const checksummed = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

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
  // Asked again: the same open top-up, no second address; another merchant finds the pool empty.
  const again = await api("/me/payout/topups", { key, body: { asset: "USDT", network: "TRON" } });
  assert.equal(again.body.topup.id, made.body.topup.id);
  assertEnvelope(await api("/me/payout/topups", { key: (await newMerchant()).production.secretKey, body: { asset: "USDT", network: "TRON" } }), "topup_address_unavailable", 503);

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
  // An address nobody was given (held, not credited), and a bad body.
  assert.deepEqual((await notify({ ...transfer, address: tronAddress(), txHash: randomBytes(32).toString("hex"), confirmations: 30 })).body, { received: true, duplicate: false, credited: false, held: "unassigned_address" });
  assert.equal((await notify({ address, network: "TRON" })).status, 400);
});

test("production: a merchant asking again keeps its one open address; addresses come back to the pool after expiry, so no key drains it", async () => {
  const address = checksummed();
  assert.deepEqual(await loadTopupAddresses("ETHEREUM", [address]), { added: 1, skipped: 0 });
  // The same address in another case is the same address: not loaded twice.
  assert.deepEqual(await loadTopupAddresses("ETHEREUM", [address.toLowerCase()]), { added: 0, skipped: 1 });
  const first = (await newMerchant()).production.secretKey;
  const second = (await newMerchant()).production.secretKey;
  const ask = (key: string) => api("/me/payout/topups", { key, body: { asset: "USDT", network: "ETHEREUM" } });
  const t1 = await ask(first);
  assert.equal(t1.status, 201, t1.text);
  assert.equal(t1.body.topup.address, address);
  // Five more requests with the same key: the same top-up each time, the pool not touched.
  for (let i = 0; i < 5; i++) assert.equal((await ask(first)).body.topup.id, t1.body.topup.id);
  assertEnvelope(await ask(second), "topup_address_unavailable", 503);

  // Expired: still kept from others for a while (a late transfer of the first merchant lands on its
  // own expired top-up, held), but the same merchant gets the same address again.
  await db().topup.update({ where: { id: t1.body.topup.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  assertEnvelope(await ask(second), "topup_address_unavailable", 503);
  const t2 = await ask(first);
  assert.equal(t2.status, 201, t2.text);
  assert.notEqual(t2.body.topup.id, t1.body.topup.id);
  assert.equal(t2.body.topup.address, address);
  assert.equal(t2.body.topup.status, "awaiting_funds");

  // Past the quarantine after its last top-up expired: back in the pool for anyone.
  await db().topup.update({ where: { id: t2.body.topup.id }, data: { expiresAt: new Date(Date.now() - ADDRESS_QUARANTINE_MS - 1_000) } });
  const t3 = await ask(second);
  assert.equal(t3.status, 201, t3.text);
  assert.equal(t3.body.topup.address, address);
  assertEnvelope(await ask(first), "topup_address_unavailable", 503);
});

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

const askTopup = async (key: string, network: "TRON" | "ETHEREUM" | "POLYGON") => {
  const r = await api("/me/payout/topups", { key, body: { asset: "USDT", network } });
  assert.equal(r.status, 201, r.text);
  return r.body.topup as { id: string; address: string };
};
const credits = (merchantId: string) => db().ledgerPosting.count({ where: { merchantId, kind: "topup_credited" } });

test("production: one transaction carrying transfers to several addresses (a batch payout) credits each, in either order; one transfer reported twice credits once; a merchant's second transfer in it is held", async () => {
  await loadTopupAddresses("TRON", Array.from({ length: 8 }, tronAddress));
  const holder = async () => {
    const m = await newMerchant();
    return { ...m, topup: await askTopup(m.production.secretKey, "TRON") };
  };
  const [a, b, c, d, e] = [await holder(), await holder(), await holder(), await holder(), await holder()];
  const usd = (m: typeof a) => usdAvailable(m.production.secretKey);

  // Both confirmed: A's transfer at log 0, then B's at log 1 of the same transaction.
  const h = randomBytes(32).toString("hex");
  const toA = await notify({ address: a.topup.address, network: "TRON", txHash: h, logIndex: 0, amount: "100", confirmations: 25 });
  assert.deepEqual([toA.status, toA.body.credited], [200, true], toA.text);
  const toB = await notify({ address: b.topup.address, network: "TRON", txHash: h, logIndex: 1, amount: "250", confirmations: 25 });
  assert.deepEqual([toB.status, toB.body.credited, toB.body.held], [200, true, undefined], toB.text);
  // B's transfer reported again (another noticeId, more confirmations): nothing more.
  const againB = await notify({ address: b.topup.address, network: "TRON", txHash: h, logIndex: 1, amount: "250", confirmations: 40 });
  assert.deepEqual([againB.status, againB.body.credited, againB.body.held], [200, false, undefined], againB.text);
  assert.deepEqual([await usd(a), await usd(b)], [100, 250]);
  assert.deepEqual([await credits(a.merchantId), await credits(b.merchantId)], [1, 1]);

  // The first still confirming when the second is confirmed: neither overwrites the other.
  const h2 = randomBytes(32).toString("hex");
  assert.equal((await notify({ address: c.topup.address, network: "TRON", txHash: h2, logIndex: 2, amount: "100", confirmations: 3 })).body.credited, false);
  const toD = await notify({ address: d.topup.address, network: "TRON", txHash: h2, logIndex: 4, amount: "250", confirmations: 25 });
  assert.deepEqual([toD.status, toD.body.credited], [200, true], toD.text);
  const toC = await notify({ address: c.topup.address, network: "TRON", txHash: h2, logIndex: 2, amount: "100", confirmations: 25 });
  assert.deepEqual([toC.status, toC.body.credited, toC.body.held], [200, true, undefined], toC.text);
  assert.deepEqual([await usd(c), await usd(d)], [100, 250]);
  const rows = await db().topupTransfer.findMany({ where: { network: "TRON", txHash: h2 } });
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r.topupId, [r.status, r.logIndex, r.amount, r.address]])), { [c.topup.id]: ["credited", 2, "100", c.topup.address], [d.topup.id]: ["credited", 4, "250", d.topup.address] });
  assert.deepEqual((await db().topup.findMany({ where: { txHash: h2 }, orderBy: { logIndex: "asc" } })).map((x) => [x.id, x.logIndex]), [[c.topup.id, 2], [d.topup.id, 4]]);

  // Two transfers to one merchant's address in one transaction: the first credits, the second is held.
  const h3 = randomBytes(32).toString("hex");
  assert.equal((await notify({ address: e.topup.address, network: "TRON", txHash: h3, logIndex: 0, amount: "60", confirmations: 25 })).body.credited, true);
  const second = await notify({ address: e.topup.address, network: "TRON", txHash: h3, logIndex: 1, amount: "40", confirmations: 25 });
  assert.deepEqual([second.status, second.body.credited, second.body.held], [200, false, "after_first"], second.text);
  assert.equal(await usd(e), 60);
  assert.deepEqual(
    (await db().topupTransfer.findMany({ where: { network: "TRON", txHash: h3 }, orderBy: { amountUsd: "desc" } })).map((r) => [r.status, r.holdReason, r.amount]),
    [["credited", null, "60"], ["held", "after_first", "40"]],
  );

  // The transfer's index is required: without it two transfers of a transaction cannot be told apart.
  const h4 = randomBytes(32).toString("hex");
  assertEnvelope(await notify({ address: e.topup.address, network: "TRON", txHash: h4, logIndex: undefined, amount: "5", confirmations: 25 }), "invalid_request", 400);
  assertEnvelope(await notify({ address: e.topup.address, network: "TRON", txHash: h4, logIndex: -1, amount: "5", confirmations: 25 }), "invalid_request", 400);
  assert.equal(await db().topupTransfer.count({ where: { txHash: h4 } }), 0);

  // A row recorded before notices carried a log index (a transfer still confirming at the upgrade):
  // the first report of that transfer takes it over, keeping when it was first seen.
  const f = await holder();
  const h5 = randomBytes(32).toString("hex");
  const seen = new Date(Date.now() - 60_000);
  await db().topupTransfer.create({ data: { network: "TRON", txHash: h5, logIndex: -1, topupId: f.topup.id, merchantId: f.merchantId, environment: "production", asset: "USDT", address: f.topup.address, amount: "70", amountUsd: 7_000n, confirmations: 3, status: "pending", firstSeenAt: seen } });
  const upgraded = await notify({ address: f.topup.address, network: "TRON", txHash: h5, logIndex: 3, amount: "70", confirmations: 25 });
  assert.deepEqual([upgraded.status, upgraded.body.credited], [200, true], upgraded.text);
  assert.deepEqual((await db().topupTransfer.findMany({ where: { txHash: h5 } })).map((r) => [r.logIndex, r.status, r.firstSeenAt.getTime()]), [[3, "credited", seen.getTime()]]);
  assert.equal(await usd(f), 70);

  // The custody simulator's notices carry the index: a batch sent through it credits both.
  const [g, k] = [await holder(), await holder()];
  const batch = randomBytes(32).toString("hex");
  for (const [i, m] of [g, k].entries()) {
    const r = await fetch(`${process.env.CUSTODY_URL}/_control/notices/deposit`, { method: "POST", body: JSON.stringify({ address: m.topup.address, network: "TRON", txHash: batch, logIndex: i, amount: "12", confirmations: 25 }) });
    assert.equal(r.status, 202);
  }
  await waitFor(async () => (await db().topupTransfer.count({ where: { txHash: batch, status: "credited" } })) === 2, "both transfers of the simulator's batch credited");
  assert.deepEqual([await usd(g), await usd(k)], [12, 12]);
});

test("production: a recycled pool address holds a transfer from a sender of its previous holder, or any within 30 days of that top-up's expiry; a never-used address is given first", async () => {
  const DAY = 86_400_000;
  const r = checksummed();
  await loadTopupAddresses("ETHEREUM", [r]);
  const [a, b] = [await newMerchant(), await newMerchant()];
  const ta = await askTopup(a.production.secretKey, "ETHEREUM");
  assert.equal(ta.address, r);
  const customer = checksummed();
  const paid = await notify({ address: r, network: "ETHEREUM", txHash: evmHash(), from: customer.toLowerCase(), amount: "50", confirmations: 12 });
  assert.equal(paid.body.credited, true, paid.text);
  // A's top-up expired a day more than the hold ago (30 days): the address goes to B.
  await db().topup.update({ where: { id: ta.id }, data: { expiresAt: new Date(Date.now() - RECYCLED_HOLD_MS - DAY) } });
  const tb = await askTopup(b.production.secretKey, "ETHEREUM");
  assert.equal(tb.address, r);
  // A's customer pays the address it saved (its own spelling of the sender): held for an operator, not B's money.
  const late = await notify({ address: r, network: "ETHEREUM", txHash: evmHash(), from: customer, amount: "80", confirmations: 12 });
  assert.deepEqual([late.status, late.body.credited, late.body.held], [200, false, "recycled_address"], late.text);
  assert.equal(await usdAvailable(b.production.secretKey), 0);
  // A sender never seen on the address, a month after its previous holder: B's, credited.
  const own = await notify({ address: r, network: "ETHEREUM", txHash: evmHash(), from: checksummed(), amount: "30", confirmations: 12 });
  assert.deepEqual([own.body.credited, own.body.held], [true, undefined], own.text);
  assert.equal(await usdAvailable(b.production.secretKey), 30);

  // Given again just past the 72 h reuse quarantine: within 30 days any sender may be the previous holder's customer.
  const r2 = checksummed();
  await loadTopupAddresses("ETHEREUM", [r2]);
  const [c, d] = [await newMerchant(), await newMerchant()];
  const tc = await askTopup(c.production.secretKey, "ETHEREUM");
  assert.equal(tc.address, r2);
  await db().topup.update({ where: { id: tc.id }, data: { expiresAt: new Date(Date.now() - ADDRESS_QUARANTINE_MS - 1_000) } });
  assert.equal((await askTopup(d.production.secretKey, "ETHEREUM")).address, r2);
  const soon = await notify({ address: r2, network: "ETHEREUM", txHash: evmHash(), from: checksummed(), amount: "30", confirmations: 12 });
  assert.deepEqual([soon.status, soon.body.credited, soon.body.held], [200, false, "recycled_address"], soon.text);
  assert.equal(await usdAvailable(d.production.secretKey), 0);

  // A never-used address is given before a recycled one, even one long idle.
  const r3 = checksummed();
  await loadTopupAddresses("ETHEREUM", [r3]);
  const te = await askTopup((await newMerchant()).production.secretKey, "ETHEREUM");
  assert.equal(te.address, r3);
  await db().topup.update({ where: { id: te.id }, data: { expiresAt: new Date(Date.now() - 3 * RECYCLED_HOLD_MS) } });
  const fresh = checksummed();
  await loadTopupAddresses("ETHEREUM", [fresh]);
  assert.equal((await askTopup((await newMerchant()).production.secretKey, "ETHEREUM")).address, fresh);
});

/** lp_topup_transfers_held_by_reason from /metrics, by reason. */
async function heldByReason(): Promise<Record<string, number>> {
  const text = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  return Object.fromEntries([...text.matchAll(/^lp_topup_transfers_held_by_reason\{reason="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

test("production: a transfer to an address nobody was given, or to no address of the network, is recorded as held with its reason and counted in /metrics", async () => {
  const before = await heldByReason();
  const nobody = tronAddress();
  const h = randomBytes(32).toString("hex");
  const first = await notify({ address: nobody, network: "TRON", txHash: h, amount: "15", confirmations: 2 });
  assert.deepEqual([first.status, first.body.credited, first.body.held], [200, false, "unassigned_address"], first.text);
  // Reported again, confirmed: the same one record.
  const again = await notify({ address: nobody, network: "TRON", txHash: h, amount: "15", confirmations: 40 });
  assert.deepEqual([again.status, again.body.credited, again.body.held], [200, false, "unassigned_address"], again.text);
  assert.deepEqual(
    (await db().topupTransfer.findMany({ where: { network: "TRON", txHash: h } })).map((r) => [r.status, r.holdReason, r.address, r.amount, r.topupId]),
    [["held", "unassigned_address", nobody, "15", null]],
  );
  // Not an address of the network at all (a TRON checksum broken, an EVM address too short).
  const broken = `${nobody.slice(0, -1)}${nobody.endsWith("a") ? "b" : "a"}`;
  for (const [network, address, txHash] of [["TRON", broken, randomBytes(32).toString("hex")], ["POLYGON", "0x1234", evmHash()]] as const) {
    const r = await notify({ address, network, txHash, amount: "7.5", confirmations: 200 });
    assert.deepEqual([r.status, r.body.credited, r.body.held], [200, false, "invalid_address"], r.text);
    assert.deepEqual((await db().topupTransfer.findMany({ where: { network, txHash } })).map((x) => [x.status, x.holdReason, x.address]), [["held", "invalid_address", address]]);
  }
  const after = await heldByReason();
  assert.equal((after.unassigned_address ?? 0) - (before.unassigned_address ?? 0), 1, JSON.stringify(after));
  assert.equal((after.invalid_address ?? 0) - (before.invalid_address ?? 0), 2, JSON.stringify(after));
});
