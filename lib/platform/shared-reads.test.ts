// Shared reads (lib/platform/shared-reads.ts) against the test database: concurrent runs of one statement
// share round trips, yet each caller gets exactly its own rows, in its own order, or its own error.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, sql } from "@/lib/platform/db";
import { sharedReadStats, sharedText, sqlShared } from "@/lib/platform/shared-reads";

after(() => db().$disconnect());

const DESCENDING = `SELECT g AS n, $2::text AS label FROM generate_series(1, $1::int) AS g ORDER BY g DESC LIMIT $3`;

test("concurrent runs share statements; each gets its own rows in its own order", async () => {
  const before = sharedReadStats();
  const asks = Array.from({ length: 60 }, (_, i) => [1 + (i % 7), `run-${i}`, 1 + (i % 5)] as const);
  const answers = await Promise.all(asks.map((v) => sqlShared<{ n: number; label: string }>(DESCENDING, [...v])));
  const stats = sharedReadStats();
  assert.ok(stats.runs - before.runs > stats.statements - before.statements, `runs shared statements (${stats.runs - before.runs} in ${stats.statements - before.statements})`);
  for (let i = 0; i < asks.length; i++) {
    const alone = await sql<{ n: number; label: string }>(DESCENDING, [...asks[i]!]);
    assert.deepEqual(answers[i], alone, `run ${i} got what it would alone`);
    assert.deepEqual(Object.keys(answers[i]![0]!), ["n", "label"], "no tag column left on a row");
  }
});

test("a run that fails fails alone", async () => {
  const text = `SELECT $1::int AS n`;
  const results = await Promise.allSettled(["1", "2", "not a number", "4", "5", "6"].map((v) => sqlShared<{ n: number }>(text, [v])));
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value[0]!.n : "rejected")),
    [1, 2, "rejected", 4, 5, 6],
  );
  assert.equal((results[2] as PromiseRejectedResult).reason.code, "22P02");
});

test("placeholders are renumbered per branch, repeated ones included", () => {
  const shared = sharedText(`SELECT a FROM t WHERE x = $1 AND (y = $2 OR $2 IS NULL) LIMIT $3`, 3, 2);
  assert.match(shared, /x = \$1 AND \(y = \$2 OR \$2 IS NULL\) LIMIT \$3/);
  assert.match(shared, /x = \$4 AND \(y = \$5 OR \$5 IS NULL\) LIMIT \$6/);
  assert.doesNotMatch(shared, /\$7/);
});

// The statements shared are pages of one owner's rows: their plan must not be one made for a
// caller's values from statistics that may predate the owner (lib/platform/db.ts, genericPlan).
test("shared runs, together and alone, run on one generic plan, without JIT", async () => {
  const text = `SELECT current_setting('plan_cache_mode') || ' ' || current_setting('jit') AS mode, $1::int AS i`;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => sqlShared<{ mode: string; i: number }>(text, [i])));
  assert.deepEqual(answers.map((rows) => rows.map((r) => r.mode)), answers.map(() => ["force_generic_plan off"]));
  assert.equal((await sqlShared<{ mode: string }>(text, [1]))[0]!.mode, "force_generic_plan off");
  assert.equal((await sql<{ mode: string }>(text, [1]))[0]!.mode, "auto off", "other statements are planned for their values, without JIT too");
});
