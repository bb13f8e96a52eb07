// Pool addresses in production over real HTTP, on the ETHEREUM pool (decisions.md "Crypto top-ups
// of the payout balance"): a merchant keeps its one open address, addresses come back after expiry
// so one key cannot drain the pool, and a recycled address holds what may be its previous holder's
// (a known sender, or soon after); a never-used address is given first. One file: the tests share
// the pool's order.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { ADDRESS_QUARANTINE_MS, loadTopupAddresses } from "@/lib/topups/topups";
import { RECYCLED_HOLD_MS } from "@/lib/topups/schema";
import { usdAvailable, notify, evmHash, checksummed, askTopup } from "./topups-fixtures.ts";

after(() => db().$disconnect());

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
