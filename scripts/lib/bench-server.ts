// A benchmark's server: a fresh database of the local PostgreSQL with every migration, a
// production build, the app on a free port; dropped again afterwards whatever happens.
import { deployMigrations } from "./schema-engine.ts";
import { freePort } from "./embedded-db.ts";
import { scratchDatabase } from "./scratch-database.ts";
import { buildIfStale } from "./build.ts";
import { startNext, waitForHttp } from "./server.ts";

/** One statement on its own connection (the benchmarks' seeding and checks). */
export { sql } from "./postgres.ts";

export async function withBenchServer<T>(env: Record<string, string>, run: (s: { url: string; databaseUrl: string }) => Promise<T>): Promise<T> {
  const scratch = await scratchDatabase("lp_bench");
  const databaseUrl = scratch.url;
  try {
    const port = await freePort();
    await deployMigrations(databaseUrl);
    await buildIfStale();
    const server = startNext({ port, stdio: "ignore", env: { DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000", APP_ENV: "test", ...env } });
    try {
      await waitForHttp(`${server.url}/api/v1/ping`);
      // Use cases imported by the benchmark (to seed data) talk to the same database.
      process.env.DATABASE_URL = databaseUrl;
      return await run({ url: server.url, databaseUrl });
    } finally {
      await server.stop();
    }
  } finally {
    await scratch.drop();
  }
}
