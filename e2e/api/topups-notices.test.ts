// Crypto top-ups in production over real HTTP, on the TRON pool (decisions.md "Crypto top-ups of
// the payout balance"): the operator's pool from the CLI (empty: 503 topup_address_unavailable);
// signed custody notices (too few confirmations credit nothing, five reports at once credit once,
// a bad signature is refused); one transaction's transfers to several merchants credited in either
// order; a transfer to an address nobody was given, or to no address at all, held with its reason
// and counted. One file, in this order: the tests share the TRON pool (the first needs it empty)
// and the held-by-reason counts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { api, assertEnvelope, newMerchant, tsx, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { loadTopupAddresses } from "@/lib/topups/topups";
import { usdAvailable, tronAddress, notify, evmHash, askTopup, credits, heldByReason } from "./topups-fixtures.ts";

after(() => db().$disconnect());

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
