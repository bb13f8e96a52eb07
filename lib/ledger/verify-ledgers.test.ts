// The ledger verification job against the test database: incremental from each ledger's
// checkpoint (a run reads only the entries after it), still catching running totals that drift
// from the entries; a full run reads everything again and finds what an incremental one cannot
// (an old entry changed in place), and the ledger stays on full runs while that warning stands.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { verifyLedgers } from "@/lib/ledger/verify-ledgers";

after(() => db().$disconnect());

test("verification is incremental from a checkpoint; running totals are still checked; --full re-reads every entry", async () => {
  const { merchantId } = await createMerchant({ name: "Ledger checkpoint" });
  const auth = { merchant: { id: merchantId }, environment: "sandbox" as const };
  for (let i = 0; i < 20; i++) await fundSandbox(auth, { currency: "USD", amount: 10 });
  const all = () => db().ledgerEntry.count({ where: { merchantId, environment: "sandbox" } });
  const total = await all();
  assert.ok(total >= 20);

  const [first] = await verifyLedgers({ merchantId, force: true });
  assert.deepEqual([first!.full, first!.entries, first!.warnings], [true, total, []], "no checkpoint yet: a full run");

  await fundSandbox(auth, { currency: "USD", amount: 5 });
  await fundSandbox(auth, { currency: "USD", amount: 5 });
  const added = (await all()) - total;
  const [second] = await verifyLedgers({ merchantId });
  assert.deepEqual([second!.full, second!.entries, second!.warnings], [false, added, []], "only the new entries are read");
  const [idle] = await verifyLedgers({ merchantId, force: true });
  assert.deepEqual([idle!.full, idle!.entries, idle!.warnings], [false, 0, []]);

  // A running total that drifts from its entries is caught by an incremental run.
  const bal = await db().ledgerBalance.findFirstOrThrow({ where: { merchantId, environment: "sandbox", entries: { gt: 0 } } });
  const balKey = { merchantId_environment_account_currency: { merchantId, environment: bal.environment, account: bal.account, currency: bal.currency } };
  await db().ledgerBalance.update({ where: balKey, data: { balance: bal.balance + 1n } });
  const [drift] = await verifyLedgers({ merchantId, force: true });
  assert.equal(drift!.full, false);
  assert.deepEqual(drift!.warnings.map((w) => w.code), ["running_total_mismatch"]);
  await db().ledgerBalance.update({ where: balKey, data: { balance: bal.balance } });
  assert.deepEqual((await verifyLedgers({ merchantId, force: true }))[0]!.warnings, []);

  // An old entry changed in place: behind the checkpoint, so only a full run can see it.
  const old = await db().ledgerEntry.findFirstOrThrow({ where: { merchantId, environment: "sandbox" }, orderBy: { seq: "asc" } });
  await db().ledgerEntry.update({ where: { id: old.id }, data: { amount: old.amount + 7n } });
  assert.deepEqual((await verifyLedgers({ merchantId, force: true }))[0]!.warnings, [], "an incremental run does not re-read old entries");
  const [full] = await verifyLedgers({ merchantId, force: true, full: true });
  assert.equal(full!.full, true);
  assert.equal(full!.entries, await all());
  assert.ok(full!.warnings.some((w) => w.code === "unbalanced_posting"), JSON.stringify(full!.warnings));
  const [stays] = await verifyLedgers({ merchantId, force: true });
  assert.equal(stays!.full, true, "while an unbalanced posting stands, runs are full");
  assert.ok(stays!.warnings.some((w) => w.code === "unbalanced_posting"));
  await db().ledgerEntry.update({ where: { id: old.id }, data: { amount: old.amount } });
  assert.deepEqual((await verifyLedgers({ merchantId, force: true }))[0]!.warnings, []);
  assert.equal((await verifyLedgers({ merchantId, force: true }))[0]!.full, false, "back to incremental");
});
