// One sandbox run of the ledger property tests (not a test file itself): a fresh merchant, its
// commands (ledger-property-commands.ts), the invariants checked after every step, and the drain
// that settles and releases everything at the end.
import assert from "node:assert/strict";
import { api, waitFor, type ApiOptions, type ApiResponse } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";
import { verifyLedgers } from "@/lib/ledger/verify-ledgers";
import { DAY, BUCKETS, type Bucket, type Cmd, accountSums, bucket, sameSums, kernelChecks, crossChecks, payoutChecks, scheduledActionsOf, usdMinor, toMinorOf, j } from "./ledger-property-model.ts";
import { execCmd } from "./ledger-property-commands.ts";

// ---------------------------------------------------------------------------------------------
// One run: a fresh merchant, the commands, a check after every step.

export type Payment = { id: string; amountLocal: number; currencyLocal: string };

export class Run {
  readonly trace: string[] = [];
  readonly payments: Payment[] = [];
  readonly payouts: string[] = [];
  depositAccountId: string | null = null;
  lastTrackingKey: string | null = null;
  qrReady = false;
  constructor(
    readonly merchantId: string,
    readonly key: string,
  ) {}

  /** Every request of the run goes through here: a 5xx fails the run at once. */
  async call(path: string, opts: ApiOptions = {}): Promise<ApiResponse> {
    // A starter key has 100 requests a minute: should a run outpace it, wait for the bucket to
    // let the request through (a refused request changes nothing).
    const res = await waitFor(async () => {
      const r = await api(path, { key: this.key, ...opts });
      return r.status !== 429 && r;
    }, `${path} past the rate limit`, 70_000);
    if (res.status >= 500) assert.fail(`${opts.method ?? (opts.body !== undefined ? "POST" : "GET")} ${path} answered ${res.status}: ${res.text.slice(0, 500)}\ntrace:\n${this.trace.join("\n")}`);
    return res;
  }

  fail(step: string, message: string): never {
    assert.fail(`after ${step}: ${message}\ntrace:\n${this.trace.join("\n")}`);
  }

  exec(cmd: Cmd): Promise<string> {
    return execCmd(this, cmd);
  }

  /** The invariants; `step` names what just happened. */
  async check(step: string, opts: { payoutApi?: boolean } = {}): Promise<Record<Bucket, bigint>> {
    // (1) and (1b): the kernel's invariants.
    await kernelChecks(this.merchantId, "sandbox", (message) => this.fail(step, message));

    // (2) + (3) GET /me/balance equals the ledger and carries no warnings. The ledger may move
    // while the request runs (the server's ticker): compare only when it did not.
    for (let attempt = 0; ; attempt++) {
      const before = await accountSums(this.merchantId);
      const res = await this.call("/me/balance");
      if (res.status !== 200) this.fail(step, `GET /me/balance answered ${res.status} ${res.text.slice(0, 300)}`);
      const afterSums = await accountSums(this.merchantId);
      const stable = sameSums(before, afterSums);
      if (!Array.isArray(res.body.ledgerWarnings) || res.body.ledgerWarnings.length > 0) {
        this.fail(
          step,
          `ledgerWarnings ${j(res.body.ledgerWarnings)}; ledger ${stable ? "did not change" : "changed"} during the request; ` +
            `one-snapshot cross-checks now: ${j(await crossChecks(this.merchantId))}; balance ${j(res.body.balance)}`,
        );
      }
      if (stable) {
        const got = Object.fromEntries(BUCKETS.map((b) => [b, usdMinor(res.body.balance[b])]));
        const want = Object.fromEntries(BUCKETS.map((b) => [b, Number(bucket(afterSums, b))]));
        if (j(got) !== j(want)) this.fail(step, `balance ${j(got)} (minor units) differs from the ledger ${j(want)}`);
        break;
      }
      if (attempt >= 20) this.fail(step, "the ledger kept moving during 20 balance reads");
    }

    // The same cross-checks ledgerWarnings makes, from one snapshot, and the buckets that can
    // never be negative (every payment here has a positive net).
    const x = await crossChecks(this.merchantId);
    if (x.frozen !== x.open_claims) this.fail(step, `frozen ${x.frozen} != open claims ${x.open_claims}`);
    if (x.reserve !== x.held_reserves) this.fail(step, `reserve ${x.reserve} != unreleased reserves ${x.held_reserves}`);
    // Installments (issue 42): the financing leg holds the fees of completed payments less what refunds gave back.
    if (x.financing !== x.financing_kept) this.fail(step, `financing_fees ${x.financing} != completed payments' fees less refunded shares ${x.financing_kept}`);
    const sums = await accountSums(this.merchantId);
    const out = Object.fromEntries(BUCKETS.map((b) => [b, bucket(sums, b)])) as Record<Bucket, bigint>;
    for (const b of ["pending", "reserve", "frozen"] as const) if (out[b] < 0n) this.fail(step, `${b} is negative: ${j(out)}`);

    // (4) The payout environment: never below zero, in-flight money is exactly what processing
    // payouts hold, and GET /me/payout/balance equals the ledger (nothing here runs in the
    // background, so the ledger is still).
    const payout = await payoutChecks(this.merchantId);
    for (const c of payout) {
      if (c.available < 0n) this.fail(step, `payout ${c.currency} available is negative: ${j(c)}`);
      if (c.in_flight !== c.processing) this.fail(step, `payout ${c.currency} in flight ${c.in_flight} != processing payouts ${c.processing}`);
    }
    if (opts.payoutApi === false) return out;
    const pb = await this.call("/me/payout/balance");
    if (pb.status !== 200) this.fail(step, `GET /me/payout/balance answered ${pb.status}`);
    const shown = Object.fromEntries(pb.body.balances.map((b: any) => [b.currency, [toMinorOf(b.available, b.currency), toMinorOf(b.reserved, b.currency)]]));
    const want: Record<string, [number, number]> = { USD: [0, 0] };
    for (const c of payout) want[c.currency] = [Number(c.available), Number(c.in_flight)];
    if (j(shown) !== j(Object.fromEntries(Object.entries(want).sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)))))) {
      this.fail(step, `payout balance ${j(pb.body.balances)} differs from the ledger ${j(payout)}`);
    }
    return out;
  }

  /** End of a run: let every scheduled outcome happen, settle and release everything. */
  async drain() {
    // A scheduled action that threw is a bug of its own (the transitions are idempotent and
    // never refuse): report it rather than wait for its retry.
    // 45 s: on a loaded 2-core CI machine the server's ticker and this process compete for rows.
    let last: unknown[] = [];
    await waitFor(
      async () => {
        await runScheduledActions({ merchantId: this.merchantId });
        const actions = await scheduledActionsOf(this.merchantId);
        last = actions;
        // A thrown error (a lost connection) is retried without spending an attempt and may leave
        // its last_error on an action that then completed: only a failed action is broken.
        const broken = actions.filter((a) => a.state === "failed");
        if (broken.length) this.fail("drain", `scheduled actions failed: ${j(broken)}`);
        return actions.every((a) => a.state === "done");
      },
      "the merchant's scheduled actions to finish",
      45_000,
    ).catch((err: Error) => this.fail("drain", `${err.message}; actions: ${j(last)}`));
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: this.merchantId });
    await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY), merchantId: this.merchantId });
    // The job itself (claiming the merchant's ledger) stores no warning, and the API shows none.
    // (A merchant whose ledger has no entries has nothing to check.)
    if ((await db().ledgerBalance.count({ where: { merchantId: this.merchantId } })) > 0) {
      await waitFor(async () => (await verifyLedgers({ merchantId: this.merchantId, force: true })).some((c) => c.merchantId === this.merchantId), "the verification job to check the merchant's ledger", 30_000);
    }
    const b = await this.check("drain (all settled, all reserves released)");
    // Settled payments leave nothing pending; released reserves leave no reserve.
    if (b.pending !== 0n) this.fail("drain", `pending is ${b.pending} after settling everything`);
    if (b.reserve !== 0n) this.fail("drain", `reserve is ${b.reserve} after releasing everything`);
  }
}
/** One run's steps: each command, its outcome in the trace (a non-assertion throw is a failure), then `checkAfter`. */
export async function runSteps<C>(run: { exec(cmd: C): Promise<string>; fail(step: string, message: string): never; trace: string[] }, cmds: C[], checkAfter: (label: string, cmd: C) => Promise<unknown>) {
  for (const [i, cmd] of cmds.entries()) {
    const label = `#${i} ${j(cmd)}`;
    const outcome = await run.exec(cmd).catch((err: unknown) => {
      if (err instanceof assert.AssertionError) throw err;
      return run.fail(label, `threw ${err instanceof Error ? err.stack : String(err)}`);
    });
    run.trace.push(`${label} -> ${outcome}`);
    await checkAfter(label, cmd);
  }
}
