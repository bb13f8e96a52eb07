// Configuration: read once from the environment, validated with zod. Development gets safe
// defaults; APP_ENV=production refuses to start without real secrets.
import { z } from "zod";
import { ConfigError, parseTrustedProxies, refuseUndeclaredProduction, requireProductionExtras } from "@/lib/platform/config-production";

const DEV_SECRET = "dev-only-insecure-secret-change-me-0000000000";

const boolFlag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const positive = (def: number) => z.coerce.number().positive().default(def);

export const configSchema = z
  .object({
    APP_ENV: z.enum(["development", "test", "production"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z.url().optional(),
    SANDBOX_URL: z.url().optional(),
    DATABASE_URL: z.string().min(1).optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Named prepared statements; off for the embedded database (its connections share one session) or PgBouncer. */
    DATABASE_PREPARED_STATEMENTS: z.enum(["1", "0", "true", "false"]).default("true").transform((v) => v === "1" || v === "true"),
    HOST: z.string().min(1).default("127.0.0.1"),
    AUTH_SECRET: z.string().min(1).default(DEV_SECRET),
    JWT_SECRET: z.string().min(1).default(DEV_SECRET),
    ENCRYPTION_KEY: z.string().min(1).default(DEV_SECRET),
    SANDBOX_DELAY_SCALE: positive(1),
    WEBHOOK_RETRY_SCALE: positive(1),
    /** Per-attempt timeout of a webhook delivery (the contract's 10 s; tests use less). */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** Webhook deliveries in flight per process, and per subscription (so one slow receiver cannot take every slot). */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(4_096).default(256),
    WEBHOOK_SUBSCRIPTION_CONCURRENCY: z.coerce.number().int().min(1).max(1_024).default(64),
    RATE_LIMIT_SCALE: positive(1),
    /** How long an idempotent request that has committed nothing yet holds its key before a retry may take it over. */
    IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(100).default(60_000),
    /** Failed authentications per client address per minute before it gets 429 without a lookup. */
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Failed dashboard sign-ins per client address per 15 minutes before the address is throttled. */
    SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
    /**
     * The addresses (CIDRs, comma-separated) of our own proxies in front of the app. Hops of
     * X-Forwarded-For are believed only while the hop to their right is one of them (see
     * lib/platform/http/client-ip.ts). Empty (default): no proxy, forwarding headers are ignored.
     */
    TRUSTED_PROXIES: z.string().default("").transform((v, ctx) => parseTrustedProxies(v, ctx)),
    /** Production without REDIS_URL keeps rate limits per instance only if this says so (a logged opt-out). */
    ALLOW_LOCAL_RATE_LIMITS: boolFlag,
    JOBS_DRIVER: z.enum(["local", "inngest"]).default("local"),
    /** How often the local ticker looks for due work (scheduled actions). */
    JOBS_TICK_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    /** Days a shop has to answer a PIX MED claim with its defence (decisions.md "PIX disputes (MED)": 7). */
    PIX_MED_RESPONSE_DAYS: z.coerce.number().int().min(1).max(30).default(7),
    /** Reconciliation poll of pending transactions against their providers (contract: 5 minutes). */
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(300_000),
    REDIS_URL: z.string().min(1).optional(),
    /**
     * Success-rate routing (lib/routing/window.ts, stats.ts): the outcome window, its time buckets,
     * the long half-life that separates close providers, the change detector's threshold, how
     * often each instance re-reads the window. Chosen on the market simulation in payments
     * (half-life 300 payments, threshold 5); the times here assume about one payment a second
     * per rail and amount band.
     */
    ROUTING_WINDOW_MS: z.coerce.number().int().min(1000).default(1_800_000),
    ROUTING_BUCKET_MS: z.coerce.number().int().min(10).default(2_000),
    ROUTING_HALF_LIFE_MS: z.coerce.number().int().min(100).default(300_000),
    ROUTING_CHANGE_THRESHOLD: z.coerce.number().min(0.5).default(5),
    ROUTING_PROBE_INTERVAL_MS: z.coerce.number().int().min(10).default(30_000),
    ROUTING_PROBE_MAX_INTERVAL_MS: z.coerce.number().int().min(10).default(120_000),
    ROUTING_REFRESH_MS: z.coerce.number().int().min(10).default(1000),
    /** Key prefix of the routing window in Redis (servers sharing one window share it; a test isolates its servers with its own). */
    ROUTING_REDIS_PREFIX: z.string().min(1).max(100).default("routing:"),
    /** The routing circuit: error share of at least MIN_VOLUME attempts in WINDOW that opens it, and its cool-down before a probe. */
    ROUTING_CIRCUIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
    ROUTING_CIRCUIT_ERROR_RATE: z.coerce.number().min(0.01).max(1).default(0.5),
    ROUTING_CIRCUIT_MIN_VOLUME: z.coerce.number().int().min(1).default(5),
    ROUTING_CIRCUIT_COOLDOWN_MS: z.coerce.number().int().min(100).default(15_000),
    INNGEST_EVENT_KEY: z.string().optional(),
    INNGEST_SIGNING_KEY: z.string().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ENABLE_TEST_FIXTURES: boolFlag,
    /**
     * Bearer token of GET /metrics (Prometheus). Unset: /metrics is open in development and test,
     * and answers 404 in production (never an open door).
     */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** The custody provider that sends production withdrawals (HTTP, HMAC-signed); unset: production withdrawals answer 503. */
    CUSTODY_URL: z.url().optional(),
    CUSTODY_SECRET: z.string().min(16).optional(),
    /** Verifies the custody provider's inbound notices (X-Custody-Signature); must differ from CUSTODY_SECRET. Unset: every notice is refused. */
    CUSTODY_NOTICE_SECRET: z.string().min(16).optional(),
    /** Per-call timeout towards the custody provider; past it the outcome is unknown, not failed. */
    CUSTODY_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(10_000),
  })
  .transform((c) => ({ ...c, APP_URL: (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, "") }))
  .superRefine((c, ctx) => {
    // Inbound and outbound custody secrets differ (as providers' do): one leaked cannot forge the other.
    if (c.CUSTODY_NOTICE_SECRET && c.CUSTODY_NOTICE_SECRET === c.CUSTODY_SECRET) {
      ctx.addIssue({ code: "custom", path: ["CUSTODY_NOTICE_SECRET"], message: "must differ from CUSTODY_SECRET (inbound notices and outbound calls use separate secrets)" });
    }
    if (c.APP_ENV !== "production") return;
    requireProductionExtras(c, ctx);
    const need = (ok: boolean, path: string, message: string) => ok || ctx.addIssue({ code: "custom", path: [path], message });
    for (const key of ["AUTH_SECRET", "JWT_SECRET", "ENCRYPTION_KEY"] as const) {
      need(c[key] !== DEV_SECRET && c[key].length >= 32, key, "must be set to a random value of at least 32 characters in production");
    }
    need(new Set([c.AUTH_SECRET, c.JWT_SECRET, c.ENCRYPTION_KEY]).size === 3, "JWT_SECRET", "AUTH_SECRET, JWT_SECRET and ENCRYPTION_KEY must all differ");
    need(!!c.DATABASE_URL, "DATABASE_URL", "is required in production (the embedded database is for development)");
    need(c.APP_URL.startsWith("https://"), "APP_URL", "must be an https URL in production");
    need(!c.ENABLE_TEST_FIXTURES, "ENABLE_TEST_FIXTURES", "must not be enabled in production");
    if (c.JOBS_DRIVER === "inngest") {
      need(!!c.INNGEST_EVENT_KEY, "INNGEST_EVENT_KEY", "is required with JOBS_DRIVER=inngest in production");
      need(!!c.INNGEST_SIGNING_KEY, "INNGEST_SIGNING_KEY", "is required with JOBS_DRIVER=inngest in production");
    }
  });

export type Config = z.output<typeof configSchema>;

// ConfigError lives with the production rules (which throw it first); re-exported for callers.
export { ConfigError };

export function parseConfig(env: Record<string, string | undefined>): Config {
  // A variable set to "" means "not set" (common in .env files and CI), so its default applies.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  refuseUndeclaredProduction(cleaned, DEV_SECRET);
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Config | undefined;
/** The validated configuration of this process (parsed on first use, then frozen). */
export function config(): Config {
  cached ??= Object.freeze(parseConfig(process.env));
  return cached;
}
