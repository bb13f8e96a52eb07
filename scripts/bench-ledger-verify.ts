// The ledger verification of a busy merchant, full against incremental. Seeds one merchant
// ledger with N entries (balanced postings, INSERT … SELECT generate_series, running totals to
// match) in a fresh database, then times (median of 5 after a warm-up) a full run (every entry,
// what each run cost before checkpoints and what `ledger:verify --full` costs), an incremental
// run after 10 new postings, and an incremental run with nothing new. Prints milliseconds.
//   npx tsx scripts/bench-ledger-verify.ts [entries=100000]
import { deployMigrations } from "./lib/schema-engine.ts";
import { sql } from "./lib/postgres.ts";
import { scratchDatabase } from "./lib/scratch-database.ts";

const ENTRIES = Number(process.argv[2] ?? 100_000);
const scratch = await scratchDatabase("lp_bench");
const databaseUrl = scratch.url;

async function median(run: () => Promise<unknown>, n = 5): Promise<number> {
  await run();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(n / 2)]!;
}

try {
  await deployMigrations(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.DATABASE_POOL_SIZE = "2";
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const { fundSandbox } = await import("../lib/payouts/fund-sandbox.ts");
  const { verifyLedgers } = await import("../lib/ledger/verify-ledgers.ts");
  const { db } = await import("../lib/platform/db.ts");
  const m = await createMerchant({ name: "Ledger verification bench" });
  const merchantId = m.merchantId;
  const postings = Math.floor(ENTRIES / 2);
  const t0 = Date.now();
  // Postings of two legs each, the shape of sandbox funding (sandbox_funding -> payout_available).
  await sql(databaseUrl, `INSERT INTO ledger_postings (id, merchant_id, environment, kind, created_at)
    SELECT 'pst_bench_' || g, $1, 'sandbox', 'payout_sandbox_funding', now() FROM generate_series(1, $2) g`, [merchantId, postings]);
  await sql(databaseUrl, `INSERT INTO ledger_entries (id, posting_id, merchant_id, environment, account, currency, amount, created_at)
    SELECT 'len_bench_' || g || '_' || leg, 'pst_bench_' || g, $1, 'sandbox', CASE leg WHEN 1 THEN 'sandbox_funding' ELSE 'payout_available' END, 'USD',
      CASE leg WHEN 1 THEN -(100 + g % 1000) ELSE 100 + g % 1000 END, now()
    FROM generate_series(1, $2) g, generate_series(1, 2) leg ORDER BY g, leg`, [merchantId, postings]);
  await sql(databaseUrl, `INSERT INTO ledger_balances (merchant_id, environment, account, currency, balance, entries, updated_at)
    SELECT merchant_id, environment, account, currency, SUM(amount), COUNT(*), now() FROM ledger_entries WHERE merchant_id = $1 GROUP BY 1, 2, 3, 4
    ON CONFLICT (merchant_id, environment, account, currency) DO UPDATE SET balance = EXCLUDED.balance, entries = EXCLUDED.entries`, [merchantId]);
  await sql(databaseUrl, "ANALYZE");
  console.log(`seeded ${postings * 2} entries in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const auth = { merchant: { id: merchantId }, environment: "sandbox" as const };
  const check = async (opts: { full?: boolean }) => {
    const [c] = await verifyLedgers({ merchantId, force: true, ...opts });
    if (!c || c.warnings.length) throw new Error(`verification: ${JSON.stringify(c)}`);
    return c;
  };
  const full = await median(() => check({ full: true }));
  const incremental = await median(async () => {
    for (let i = 0; i < 10; i++) await fundSandbox(auth, { currency: "USD", amount: 1 });
    const t = performance.now();
    const c = await check({});
    if (c.full || c.entries !== 20) throw new Error(`expected an incremental run over 20 entries: ${JSON.stringify(c)}`);
    return performance.now() - t;
  });
  // `incremental` above includes the ten postings: time the run alone.
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 10; j++) await fundSandbox(auth, { currency: "USD", amount: 1 });
    const t = performance.now();
    const c = await check({});
    runs.push(performance.now() - t);
    if (c.full) throw new Error("expected an incremental run");
  }
  runs.sort((a, b) => a - b);
  const idle = await median(() => check({}));
  // The floor on this machine right now: one empty REPEATABLE READ transaction (a run has one,
  // plus its claim and its update). On a loaded shared machine this is most of an incremental run.
  const floor = await median(() => db().$transaction((tx) => tx.$queryRaw`SELECT 1`, { isolationLevel: "RepeatableRead" }));
  const entries = await db().ledgerEntry.count({ where: { merchantId } });
  console.log(`ledger of ${entries} entries:`);
  console.log(`  full run (every entry; each run before checkpoints):  ${full.toFixed(1)} ms`);
  console.log(`  incremental run after 10 postings (20 entries):        ${runs[2]!.toFixed(1)} ms  (with the postings: ${incremental.toFixed(1)} ms)`);
  console.log(`  incremental run, nothing new:                          ${idle.toFixed(1)} ms`);
  console.log(`  floor: an empty REPEATABLE READ transaction:           ${floor.toFixed(1)} ms`);
  await db().$disconnect();
} finally {
  if (process.env.BENCH_KEEP_DATABASE) console.log(`kept ${databaseUrl}`);
  else await scratch.drop().catch(() => {});
}
process.exit(0);
