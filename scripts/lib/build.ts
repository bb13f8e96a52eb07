// The production build (`npm run build`): `next build` (the app: app/, lib/, server-start.ts…),
// then the server's own code compiled to JavaScript beside it (scripts/lib/compile-server.ts:
// what `npm start` and `npm run serve` run with plain node). `buildIfStale` does only what the
// sources changed since: both when the app's sources did (`next build` empties .next), only the
// server's compile (about a second) when only its files did.
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./schema-engine.ts";
import { compileServer, serverIsStale } from "./compile-server.ts";
import { narrowServerChunks } from "./latin1-chunks.ts";

const SOURCES = ["app", "lib", "server", "components", "public", "inngest", "instrumentation.ts", "server-start.ts", "auth.ts", "proxy.ts", "next.config.mjs", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Variables a build must not need: every runtime secret and the database. */
export const BUILD_WITHOUT = ["AUTH_SECRET", "JWT_SECRET", "ENCRYPTION_KEY", "DATABASE_URL", "REDIS_URL", "AUTH_URL", "NEXTAUTH_SECRET", "NEXTAUTH_URL"];
/** Written after a successful build: the environment it ran with. */
export const BUILD_ENV_MARKER = ".next/build-env.json";

/** Whether Next's build is missing or older than the app's sources. */
export function appIsStale(): boolean {
  const marker = path.join(root, ".next/BUILD_ID");
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

/** Whether `npm run build` has something to do: the app's build or the compiled server is missing or stale. */
export function buildIsStale(): boolean {
  return appIsStale() || serverIsStale(root);
}

/** Builds what is stale: the app (and then the server, since `next build` empties .next), or the server alone. */
export async function buildIfStale(log: (s: string) => void = console.log): Promise<void> {
  if (appIsStale()) buildApp(log);
  else if (!serverIsStale(root)) return;
  const compiled = await compileServer(root);
  log(`server compiled to JavaScript (.next/node, ${compiled.files} source files) in ${(compiled.ms / 1000).toFixed(1)} s`);
}

function buildApp(log: (s: string) => void): void {
  log("building the app (next build)…");
  const started = Date.now();
  // Built as a production pipeline would: APP_ENV=production and no runtime secret or database,
  // since configuration belongs to the server that runs (e2e/api/security.test.ts reads the marker).
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", APP_ENV: "production" };
  for (const k of BUILD_WITHOUT) delete env[k];
  const r = spawnSync(path.join(root, "node_modules/.bin/next"), ["build"], { cwd: root, stdio: ["ignore", "inherit", "inherit"], env });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
  const narrowed = narrowServerChunks(path.join(root, ".next/server"));
  log(`server chunks narrowed to Latin-1: ${narrowed.files} files, ${(narrowed.savedBytes / 1048576).toFixed(1)} MiB less once loaded${narrowed.unparsed.length ? `; left whole (unparsed): ${narrowed.unparsed.join(", ")}` : ""}`);
  writeFileSync(path.join(root, BUILD_ENV_MARKER), JSON.stringify({ APP_ENV: env.APP_ENV, withheld: BUILD_WITHOUT.filter((k) => env[k] === undefined) }));
  // The build saw the sources as they were when it started: a file edited while it ran must
  // make the next run build again, so the marker carries the start time.
  const startedAt = new Date(started);
  utimesSync(path.join(root, ".next/BUILD_ID"), startedAt, startedAt);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** `npm run build`: the app and the compiled server, always (`--if-stale`: only what changed, as `npm start` does first). */
export async function build(args: string[], log: (s: string) => void = console.log): Promise<void> {
  if (args.includes("--if-stale")) return buildIfStale(log);
  buildApp(log);
  const compiled = await compileServer(root);
  log(`server compiled to JavaScript (.next/node, ${compiled.files} source files) in ${(compiled.ms / 1000).toFixed(1)} s`);
}
