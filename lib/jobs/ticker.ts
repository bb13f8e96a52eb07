// The local job driver (JOBS_DRIVER=local, the default): every job of the registry
// (lib/jobs/registry.ts) on its own interval in this process, and at once when a wake signal
// names it. Each job is idempotent and safe on many instances at once, so several servers each
// running a ticker is fine; within one process a job never overlaps itself (a wake during a run
// makes it run once more right after).
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { observeJob } from "@/lib/platform/metrics/registry";
import { onWake } from "@/lib/platform/outbox/wake";
import { JOBS, runJobSteps, type JobDef } from "@/lib/jobs/registry";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { isDatabaseUnavailable } from "@/lib/platform/errors";
import { noteDatabaseAnswered, noteDatabaseOutage } from "@/lib/platform/health/database-outage";
import { reportJobTicker } from "@/lib/platform/health/readiness";

type Runner = { job: JobDef; running: Promise<void> | null; again: boolean; timer: NodeJS.Timeout };

type Ticker = { runners: Runner[]; stopped: boolean; unlisten: () => void; lastRunAt: number };

function run(t: Ticker, r: Runner): void {
  if (t.stopped) return;
  if (r.running) {
    r.again = true;
    return;
  }
  r.running = (async () => {
    do {
      r.again = false;
      t.lastRunAt = Date.now();
      try {
        await observeJob(r.job.name, () => runJobSteps(r.job));
        noteDatabaseAnswered();
      } catch (err) {
        // A database outage is one warning for all jobs, not an error per job per tick.
        if (isDatabaseUnavailable(err)) noteDatabaseOutage(err, { job: r.job.name });
        else log.error({ job: r.job.name, err: err instanceof Error ? err.message : String(err) }, "job failed");
      }
    } while (r.again && !t.stopped);
  })().finally(() => (r.running = null));
}

export function startTicker(): void {
  singleton("job-ticker", () => {
    const t: Ticker = { runners: [], stopped: false, unlisten: () => {}, lastRunAt: Date.now() };
    for (const job of JOBS) {
      const r: Runner = { job, running: null, again: false, timer: undefined as unknown as NodeJS.Timeout };
      r.timer = setInterval(() => run(t, r), job.everyMs());
      r.timer.unref();
      t.runners.push(r);
    }
    t.unlisten = onWake((signal) => {
      for (const r of t.runners) if (r.job.wakeOn?.includes(signal)) run(t, r);
    });
    log.info({ jobs: JOBS.map((j) => j.name) }, "job ticker started");
    // A clean stop lets running jobs finish (their leases would otherwise only expire later).
    onShutdown("jobs", CLOSE_ORDER.jobs, () => stopTicker());
    reportJobTicker(tickerLastRunAt);
    return t;
  });
}

/** Stops starting runs and waits (up to `timeoutMs`) for the running ones: a clean stop loses no work half done. */
export async function stopTicker(timeoutMs = 8_000): Promise<void> {
  const t = (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.job-ticker")] as Ticker | undefined;
  if (!t || t.stopped) return;
  t.stopped = true;
  t.unlisten();
  for (const r of t.runners) clearInterval(r.timer);
  const running = t.runners.map((r) => r.running).filter(Boolean);
  await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
}

/** When the ticker of this process last started a job run (null: no ticker here). */
export function tickerLastRunAt(): number | null {
  const t = (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.job-ticker")] as Ticker | undefined;
  return t && !t.stopped ? t.lastRunAt : null;
}
