// kernelTransaction against the test database: a transaction PostgreSQL rolled back for a
// conflict (here the deadlock victim's SQLSTATE, raised by the database inside the transaction)
// runs again from the start, with nothing of the lost attempt left; any other error reaches the
// caller at once; a conflict on every attempt reaches it after the last one.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, type Tx } from "@/lib/platform/db";
import { isTransactionConflict } from "@/lib/platform/errors";
import { kernelTransaction } from "@/lib/ledger/transition";

after(() => db().$disconnect());

const deadlock = (tx: Tx) => tx.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'deadlock detected (test)' USING ERRCODE = '40P01'; END $$`);

test("a transaction lost to a conflict runs again; its first attempt leaves nothing; other errors are not retried", async () => {
  const name = `kernel_retry_${process.pid}_${Date.now()}`;
  await db().$executeRawUnsafe(`CREATE TABLE ${name} (attempt int)`);
  try {
    let attempts = 0;
    const out = await kernelTransaction("test", async (tx) => {
      attempts++;
      await tx.$executeRawUnsafe(`INSERT INTO ${name} VALUES (${attempts})`);
      if (attempts === 1) await deadlock(tx);
      return "done";
    });
    assert.equal(out, "done");
    assert.equal(attempts, 2);
    assert.deepEqual(await db().$queryRawUnsafe(`SELECT attempt FROM ${name}`), [{ attempt: 2 }], "the lost attempt's row rolled back");

    let calls = 0;
    await assert.rejects(
      kernelTransaction("test", async () => {
        calls++;
        throw new Error("a bug");
      }),
      /a bug/,
    );
    assert.equal(calls, 1);

    let lost = 0;
    await assert.rejects(
      kernelTransaction("test", async (tx) => {
        lost++;
        await deadlock(tx);
      }),
      (err) => isTransactionConflict(err),
    );
    assert.equal(lost, 4, "four attempts, then the caller hears it (a 503 on the API)");
  } finally {
    await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${name}`);
  }
});
