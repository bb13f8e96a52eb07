// GET /readyz: may this process take traffic? Each dependency answers "ok" or why not, within a
// short deadline: the database (a query), its migrations (every migration shipped is applied),
// Redis when configured, the job runner (the local ticker ran recently), and the cache
// invalidation listener (while it is lost, changes made on other instances, like a revoked key,
// reach this one only when its caches expire). A draining process
// (a stop has begun) is not ready, so a load balancer stops sending it requests.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import Redis from "ioredis";
import { config } from "@/lib/platform/config";
import { sql } from "@/lib/platform/db";
import { isDraining } from "@/lib/platform/lifecycle";
import { singleton } from "@/lib/platform/singleton";
import { invalidationListenerStatus } from "@/lib/platform/cache/invalidation";
import { noteDatabaseAnswered } from "@/lib/platform/health/database-outage";

type Check = "ok" | string;
export type Readiness = { ready: boolean; checks: Record<string, Check> };

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref())]);

/** The migrations this build ships (prisma/migrations beside the app), read once. */
const shipped = () =>
  singleton("shipped-migrations", () => {
    const dir = path.join(process.cwd(), "prisma", "migrations");
    return existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
  });

const redisProbe = () =>
  singleton("readiness-redis", () => {
    const r = new Redis(config().REDIS_URL!, { maxRetriesPerRequest: 1, connectTimeout: 1_000, commandTimeout: 1_000, lazyConnect: true, enableOfflineQueue: false });
    r.on("error", () => {});
    return r;
  });

async function database(): Promise<Check> {
  await within(sql("SELECT 1"), 2_000, "the database");
  noteDatabaseAnswered();
  return "ok";
}

async function migrations(): Promise<Check> {
  const want = shipped();
  const rows = await within(sql<{ migration_name: string }>(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`), 2_000, "the migrations table");
  const applied = new Set(rows.map((r) => r.migration_name));
  const missing = want.filter((m) => !applied.has(m));
  return missing.length ? `not applied: ${missing.join(", ")}` : "ok";
}

async function redis(): Promise<Check> {
  const r = redisProbe();
  if (r.status === "wait" || r.status === "end") await within(r.connect(), 1_000, "Redis").catch(() => {});
  await within(r.ping(), 1_000, "Redis");
  return "ok";
}

// The job ticker (lib/jobs/ticker.ts) reports here when it starts, so the platform reads its
// heartbeat without importing the jobs it runs. Held process-wide: the server's bundles and the
// start-up code may each load this module.
const ticker = singleton("health.job-ticker", () => ({ lastRunAt: (): number | null => null }));
/** The local job ticker registers how to read when it last started a run (null: stopped). */
export function reportJobTicker(lastRunAt: () => number | null): void {
  ticker.lastRunAt = lastRunAt;
}

function jobs(): Check {
  if (config().JOBS_DRIVER !== "local") return "ok"; // Inngest runs them
  const last = ticker.lastRunAt();
  if (last === null) return "the job ticker is not running";
  const stale = Date.now() - last;
  return stale > Math.max(30_000, 5 * config().JOBS_TICK_MS) ? `the job ticker last ran ${Math.round(stale / 1000)} s ago` : "ok";
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

export async function readiness(): Promise<Readiness> {
  if (isDraining()) return { ready: false, checks: { process: "draining: a stop has begun" } };
  const [db, mig, red] = await Promise.all([database().catch(reason), migrations().catch(reason), config().REDIS_URL ? redis().catch(reason) : Promise.resolve<Check>("not configured")]);
  const checks: Record<string, Check> = { database: db, migrations: mig, redis: red, jobs: jobs(), cacheInvalidation: invalidationListenerStatus() };
  return { ready: Object.values(checks).every((c) => c === "ok" || c === "not configured"), checks };
}
