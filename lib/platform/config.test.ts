// parseConfig is always given an explicit object: these tests never read process.env.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, parseConfig } from "@/lib/platform/config";

const PROD = {
  APP_ENV: "production",
  APP_URL: "https://api.example.com",
  DATABASE_URL: "postgresql://app@db.internal:5432/payments",
  AUTH_SECRET: "a".repeat(16) + "auth-secret-0123456789",
  JWT_SECRET: "b".repeat(16) + "jwt-secret-01234567890",
  ENCRYPTION_KEY: "c".repeat(16) + "encryption-key-0123456",
  REDIS_URL: "redis://redis.internal:6379/0",
} as const;

/** Asserts parseConfig throws a ConfigError whose message names every given variable. */
function rejects(env: Record<string, string | undefined>, ...names: string[]): string {
  let message = "";
  assert.throws(
    () => parseConfig(env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, "throws a ConfigError");
      message = err.message;
      for (const name of names) assert.match(err.message, new RegExp(`\\b${name}\\b`), `message mentions ${name}`);
      return true;
    },
  );
  return message;
}

describe("development defaults", () => {
  test("parseConfig({}) gives development defaults", () => {
    const c = parseConfig({});
    assert.equal(c.APP_ENV, "development");
    assert.equal(c.PORT, 3000);
    assert.equal(c.APP_URL, "http://localhost:3000");
    assert.equal(c.JOBS_DRIVER, "local");
    assert.equal(c.RATE_LIMIT_SCALE, 1);
    assert.equal(c.SANDBOX_DELAY_SCALE, 1);
    assert.equal(c.WEBHOOK_RETRY_SCALE, 1);
    assert.equal(c.DATABASE_POOL_SIZE, 10);
    assert.equal(c.LOG_LEVEL, "info");
    assert.equal(c.ENABLE_TEST_FIXTURES, false);
    assert.equal(c.DATABASE_URL, undefined);
    assert.equal(c.REDIS_URL, undefined);
  });

  test("development accepts the built-in secrets and no database URL", () => {
    const c = parseConfig({ APP_ENV: "development" });
    assert.ok(c.AUTH_SECRET.length > 0);
    assert.ok(c.JWT_SECRET.length > 0);
  });

  test("APP_URL follows PORT when unset", () => {
    assert.equal(parseConfig({ PORT: "4000" }).APP_URL, "http://localhost:4000");
  });

  test("APP_URL loses trailing slashes", () => {
    assert.equal(parseConfig({ APP_URL: "https://pay.example.com///" }).APP_URL, "https://pay.example.com");
  });

  test("numbers and flags are coerced from strings", () => {
    const c = parseConfig({ PORT: "8080", RATE_LIMIT_SCALE: "0.5", ENABLE_TEST_FIXTURES: "1" });
    assert.equal(c.PORT, 8080);
    assert.equal(c.RATE_LIMIT_SCALE, 0.5);
    assert.equal(c.ENABLE_TEST_FIXTURES, true);
    assert.equal(parseConfig({ ENABLE_TEST_FIXTURES: "true" }).ENABLE_TEST_FIXTURES, true);
    assert.equal(parseConfig({ ENABLE_TEST_FIXTURES: "0" }).ENABLE_TEST_FIXTURES, false);
    assert.equal(parseConfig({ ENABLE_TEST_FIXTURES: "false" }).ENABLE_TEST_FIXTURES, false);
  });
});

describe("invalid values", () => {
  test("bad PORT fails", () => {
    for (const PORT of ["abc", "0", "65536", "-1", "80.5"]) rejects({ PORT }, "PORT");
  });

  test("non-positive RATE_LIMIT_SCALE fails", () => {
    rejects({ RATE_LIMIT_SCALE: "0" }, "RATE_LIMIT_SCALE");
    rejects({ RATE_LIMIT_SCALE: "-1" }, "RATE_LIMIT_SCALE");
  });

  test("unknown enum values fail", () => {
    rejects({ APP_ENV: "staging" }, "APP_ENV");
    rejects({ JOBS_DRIVER: "bull" }, "JOBS_DRIVER");
    rejects({ ENABLE_TEST_FIXTURES: "yes" }, "ENABLE_TEST_FIXTURES");
  });

  test("APP_URL must be a URL", () => {
    rejects({ APP_URL: "not a url" }, "APP_URL");
  });
});

describe("production", () => {
  test("with no secrets it refuses and names every missing one", () => {
    rejects({ APP_ENV: "production" }, "AUTH_SECRET", "JWT_SECRET", "ENCRYPTION_KEY", "DATABASE_URL");
  });

  test("with proper secrets, DATABASE_URL and an https APP_URL it passes", () => {
    const c = parseConfig({ ...PROD });
    assert.equal(c.APP_ENV, "production");
    assert.equal(c.APP_URL, "https://api.example.com");
    assert.equal(c.AUTH_SECRET, PROD.AUTH_SECRET);
    assert.equal(c.DATABASE_URL, PROD.DATABASE_URL);
  });

  test("each missing requirement alone is refused and named", () => {
    rejects({ ...PROD, DATABASE_URL: undefined }, "DATABASE_URL");
    rejects({ ...PROD, AUTH_SECRET: undefined }, "AUTH_SECRET");
    rejects({ ...PROD, JWT_SECRET: undefined }, "JWT_SECRET");
    rejects({ ...PROD, ENCRYPTION_KEY: undefined }, "ENCRYPTION_KEY");
  });

  test("secrets shorter than 32 characters are refused", () => {
    rejects({ ...PROD, AUTH_SECRET: "x".repeat(31) }, "AUTH_SECRET");
    rejects({ ...PROD, ENCRYPTION_KEY: "short" }, "ENCRYPTION_KEY");
    assert.doesNotThrow(() => parseConfig({ ...PROD, AUTH_SECRET: "x".repeat(32) }));
  });

  test("the development default secret is refused even though it is long", () => {
    const devSecret = parseConfig({}).AUTH_SECRET;
    assert.ok(devSecret.length >= 32);
    rejects({ ...PROD, ENCRYPTION_KEY: devSecret }, "ENCRYPTION_KEY");
  });

  test("JWT_SECRET must differ from AUTH_SECRET", () => {
    rejects({ ...PROD, JWT_SECRET: PROD.AUTH_SECRET }, "JWT_SECRET");
  });

  test("an http APP_URL is refused", () => {
    rejects({ ...PROD, APP_URL: "http://api.example.com" }, "APP_URL");
  });

  test("an unset APP_URL (defaults to http://localhost) is refused", () => {
    rejects({ ...PROD, APP_URL: undefined }, "APP_URL");
  });

  test("ENABLE_TEST_FIXTURES is refused", () => {
    rejects({ ...PROD, ENABLE_TEST_FIXTURES: "1" }, "ENABLE_TEST_FIXTURES");
    rejects({ ...PROD, ENABLE_TEST_FIXTURES: "true" }, "ENABLE_TEST_FIXTURES");
    assert.doesNotThrow(() => parseConfig({ ...PROD, ENABLE_TEST_FIXTURES: "0" }));
  });

  test("JOBS_DRIVER=inngest needs INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY", () => {
    rejects({ ...PROD, JOBS_DRIVER: "inngest" }, "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY");
    rejects({ ...PROD, JOBS_DRIVER: "inngest", INNGEST_EVENT_KEY: "evt" }, "INNGEST_SIGNING_KEY");
    rejects({ ...PROD, JOBS_DRIVER: "inngest", INNGEST_SIGNING_KEY: "sig" }, "INNGEST_EVENT_KEY");
    const c = parseConfig({ ...PROD, JOBS_DRIVER: "inngest", INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "sig" });
    assert.equal(c.JOBS_DRIVER, "inngest");
  });

  test("inngest keys are not required outside production", () => {
    assert.equal(parseConfig({ JOBS_DRIVER: "inngest" }).JOBS_DRIVER, "inngest");
  });

  test("the error message does not echo secret values", () => {
    const leaked = "leaky-secret-value";
    const message = rejects({ ...PROD, AUTH_SECRET: leaked }, "AUTH_SECRET");
    assert.doesNotMatch(message, new RegExp(leaked));
  });
});

describe("production extras", () => {
  test("REDIS_URL is required, unless the per-instance opt-out is explicit", () => {
    rejects({ ...PROD, REDIS_URL: undefined }, "REDIS_URL");
    const c = parseConfig({ ...PROD, REDIS_URL: undefined, ALLOW_LOCAL_RATE_LIMITS: "1" });
    assert.equal(c.ALLOW_LOCAL_RATE_LIMITS, true);
    assert.equal(parseConfig({ REDIS_URL: undefined }).REDIS_URL, undefined, "development needs no Redis");
  });

  test("NODE_ENV=production without APP_ENV refuses the built-in secrets and says what to do", () => {
    const message = rejects({ NODE_ENV: "production" }, "APP_ENV", "AUTH_SECRET", "JWT_SECRET", "ENCRYPTION_KEY");
    assert.match(message, /APP_ENV=production/);
    const devSecret = parseConfig({}).AUTH_SECRET;
    rejects({ NODE_ENV: "production", AUTH_SECRET: PROD.AUTH_SECRET, JWT_SECRET: PROD.JWT_SECRET, ENCRYPTION_KEY: devSecret }, "ENCRYPTION_KEY");
    // Declared either way, NODE_ENV alone decides nothing.
    assert.equal(parseConfig({ NODE_ENV: "production", APP_ENV: "development" }).APP_ENV, "development");
    assert.equal(parseConfig({ ...PROD, NODE_ENV: "production" }).APP_ENV, "production");
  });

  test("NODE_ENV=production without APP_ENV is refused whatever else is set: production is never inferred from secrets", () => {
    const { APP_ENV: _declared, ...everythingElse } = PROD;
    const message = rejects({ ...everythingElse, NODE_ENV: "production", METRICS_TOKEN: "m".repeat(20) }, "APP_ENV");
    assert.match(message, /never inferred/);
    assert.doesNotMatch(message, /built-in development secrets/, "the secrets are fine; APP_ENV is what is missing");
  });

  test("TRUSTED_PROXIES: CIDRs and bare addresses, default none, garbage refused", () => {
    assert.deepEqual(parseConfig({}).TRUSTED_PROXIES, []);
    const t = parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 2001:db8::/32,192.0.2.7" }).TRUSTED_PROXIES;
    assert.deepEqual(t.map(([a, bits]) => `${a.toString()}/${bits}`), ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7/32"]);
    rejects({ TRUSTED_PROXIES: "10.0.0.0/8, nonsense" }, "TRUSTED_PROXIES");
    rejects({ TRUSTED_PROXIES: "10.0.0.0/33" }, "TRUSTED_PROXIES");
  });
});
