// Counters a benchmark row reads before and after its measured run, per request: CPU time of a
// process tree and of the PostgreSQL backends serving one database (Linux /proc, clock ticks), and
// the transactions that database committed. On a shared machine a rate follows the neighbours'
// load; CPU a request moves far less, so two rows of one run compare by it as well.
import { readFileSync } from "node:fs";
import { processTree } from "./process-tree.ts";
import { sql } from "./postgres.ts";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU (user + system) of one process so far, in ms; 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

export type Counters = Record<string, number>;
/** Reads counters now; a row keeps the deltas of its measured run per request. */
export type Meter = () => Promise<Counters>;

/**
 * `server`: the process whose tree serves the row; the database's backends are those connected
 * to `databaseUrl`'s database at each reading whose application_name is `application` (or, for
 * `{ not: name }`, is not; a backend that ended in between is not counted: the pools here keep
 * theirs for longer than a row runs). Commits are the whole database's.
 */
export function meter(databaseUrl: string, server: () => number | undefined, application: string | { not: string }): Meter {
  const [op, name] = typeof application === "string" ? ["=", application] : ["<>", application.not];
  return async () => {
    const rows = (await sql(databaseUrl, `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
      array(SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name ${op} $1) AS pids`, [name])).rows[0] as { commits: string; pids: number[] };
    const pid = server();
    const out: Counters = { commits: Number(rows.commits), serverMs: pid ? processTree(pid).reduce((s, p) => s + cpuOf(p.pid), 0) : 0 };
    for (const b of rows.pids) out[`db:${b}`] = cpuOf(b);
    return out;
  };
}

/** Per request between two readings: commits, server CPU µs, database CPU µs (backends seen in both, or new). */
export function perRequest(before: Counters, after: Counters, requests: number): { commits: number; serverUs: number; dbUs: number } {
  let db = 0;
  for (const [k, v] of Object.entries(after)) if (k.startsWith("db:")) db += v - (before[k] ?? 0);
  return { commits: (after.commits! - before.commits!) / requests, serverUs: ((after.serverMs! - before.serverMs!) * 1000) / requests, dbUs: (db * 1000) / requests };
}
