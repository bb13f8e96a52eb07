// The ledger under random sequences of pay-in commands (decisions.md, Pay-ins and Refunds and
// claims), QR orders (their BR Code asks exactly the amount, order and transaction agree), the
// merchant's answers to chargebacks (accept, evidence then won), withdrawals (held, completed or
// failed), crypto top-ups (reported several times, credited once), deposits to a CLABE, and the
// payout environment (sandbox funding, transfers from the pay-in balance, swaps, sends and their
// simulated outcomes): whatever happens, every posting sums to zero per currency, GET /me/balance
// and GET /me/payout/balance equal the ledger, `ledgerWarnings` is empty, no payout balance goes
// below zero, what processing payouts hold equals the in-flight account, and no request answers
// 5xx. Every move runs through the money kernel (lib/ledger/transition.ts): after every step the
// running totals equal the sums recomputed from the entries, and the ledger verification job finds
// nothing to warn about. The server's own job ticker runs concurrently with the jobs called here,
// so every check must hold at any moment. A third property runs the same ledger checks in
// production, through the simulated PSP, with payouts and refunds whose provider answer is lost
// and the status jobs that learn the outcome (ledger-property-prod.ts). The worked cases are in
// ledger-property-cases.test.ts.
//   LEDGER_PROP_RUNS=n (LEDGER_PROP_PROD_RUNS=n for the production one) and LEDGER_PROP_SEED=s
//   reproduce or widen a search; LEDGER_PROP_TRACE=1 prints every run's steps.
import { test, after } from "node:test";
import fc from "fast-check";
import { newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { type Tier, PAYOUT_KINDS, cmdArb, moneyCmdArb } from "./ledger-property-model.ts";
import { Run, runSteps } from "./ledger-property-run.ts";
import { prodCmdArb, ProdRun } from "./ledger-property-prod.ts";

after(() => db().$disconnect());

test("ledger property: random pay-in, refund, chargeback, deposit, transfer, swap, payout and job sequences keep the ledger and the balances consistent", { timeout: 600_000 }, async (t) => {
  const numRuns = Number(process.env.LEDGER_PROP_RUNS ?? 20);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom<Tier>("starter", "standard", "premium"), fc.array(cmdArb, { minLength: 5, maxLength: 30 }), async (tier, cmds) => {
      const m = await newMerchant({ tier });
      const run = new Run(m.merchantId, m.sandbox.secretKey);
      await run.check("start");
      // The payout balance's API answer is compared after the commands that move it (and at
      // the end); its ledger invariants after every step. This keeps a starter key's runs
      // within its 100 requests a minute.
      await runSteps(run, cmds, (label, cmd) => run.check(label, { payoutApi: PAYOUT_KINDS.has(cmd.kind) }));
      await run.drain();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- ${tier}\n${run.trace.join("\n")}`);
    }),
    // Failures that come from a race do not reproduce on demand: shrinking would re-run the
    // whole sequence many times for nothing, so it is bounded in time.
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(240_000)] },
  );
});

test("ledger property: random deposit, settlement, transfer, swap, send and payout outcome sequences keep both ledgers balanced and every payout balance at or above zero", { timeout: 600_000 }, async () => {
  const numRuns = Number(process.env.LEDGER_PROP_RUNS ?? 20);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom<Tier>("standard", "premium"), fc.array(moneyCmdArb, { minLength: 15, maxLength: 40 }), async (tier, cmds) => {
      const m = await newMerchant({ tier });
      const run = new Run(m.merchantId, m.sandbox.secretKey);
      await runSteps(run, cmds, (label) => run.check(label));
      await run.drain();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- money ${tier}\n${run.trace.join("\n")}`);
    }),
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(180_000)] },
  );
});
test("ledger property: production payouts and refunds whose provider answer is lost, refusals and status jobs keep the ledger consistent, and every lost answer ends completed once", { timeout: 300_000 }, async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"]] as const) await setRate(quote, rate, "test");
  const numRuns = Number(process.env.LEDGER_PROP_PROD_RUNS ?? 4);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.array(prodCmdArb, { minLength: 4, maxLength: 10 }), async (cmds) => {
      const m = await newMerchant({ tier: "premium" });
      const run = new ProdRun(m.merchantId, m.production.secretKey);
      await run.fund(m.shopId);
      await run.check("funded");
      await runSteps(run, cmds, (label) => run.check(label));
      await run.final();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- production\n${run.trace.join("\n")}`);
    }),
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(60_000)] },
  );
});
