// The server's own code compiled once, at build time, to plain JavaScript beside Next's output
// (.next/node/): `npm start` and `npm run serve` run it with plain `node`, so no transpiler (tsx
// and its esbuild service processes) lives in a production process tree, and a start compiles
// nothing (issue 44). `npm run dev` keeps running the sources through tsx.
//
// What it compiles: the two entries (scripts/start.ts, scripts/serve.ts) and everything of ours
// they import — the app server and its API fast path, the embedded database, migrations, the
// simulators a development start runs. Not the app itself: Next compiles app/, lib/ and
// server-start.ts into .next/server, and this dispatcher calls those modules.
//
// How, and why so:
// - Every package stays external (`packages: "external"`): next, the Prisma runtime, pg, PGlite
//   (WASM beside its files), OpenTelemetry (which patches modules as Node loads them) are loaded
//   by Node from node_modules as they would be under tsx. Our own files, `@/` paths included,
//   are bundled. Prisma's generated client (lib/generated, TypeScript) is ours too.
// - Code splitting: a dynamic `import()` becomes a chunk loaded only when it runs, so what a
//   start does not reach (tracing without OTEL_EXPORTER_OTLP_ENDPOINT, the simulators in
//   production, the demo merchant's use cases) is never loaded. And the modules both entries
//   share are one chunk, one instance, when start.js runs serve.js in its process.
// - An entry imported by another (start imports serve; both import tracing-first first) stays a
//   separate file: serve.js forks itself as the cluster's workers (its own import.meta.url), and
//   tracing-first.js must run before the modules OpenTelemetry patches load, as it does from source.
// - `import.meta.url`/`dirname`/`filename` of a bundled file still name the source file it was
//   (every output sits two levels under the root, as scripts/lib/*.ts does), so the paths our
//   modules compute from them (the root, the migrations, a fixture) hold; the entries keep their own.
import { readFile } from "node:fs/promises";
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

// Spelled so that this file, compiled with the rest, has no such expression for the rewrite to meet in a string.
const META = ["import", "meta"].join(".");

/** Where the compiled server goes (two levels under the root, like scripts/lib). */
export const SERVER_OUT = ".next/node";
/** The entries, each compiled to SERVER_OUT/<name>.js. */
export const SERVER_ENTRIES = ["scripts/start.ts", "scripts/serve.ts", "scripts/lib/tracing-first.ts", "scripts/migrate.ts"];
/** The sources the last compile read (relative to the root), for the staleness check. */
export const SERVER_INPUTS = `${SERVER_OUT}/inputs.json`;

/** The command that runs the compiled server process (scripts/serve.ts's compiled twin). */
export function compiledServe(root: string): string {
  return path.join(root, SERVER_OUT, "serve.js");
}

/** True when there is no compiled server, or one of the files it was compiled from changed since. */
export function serverIsStale(root: string): boolean {
  const file = path.join(root, SERVER_INPUTS);
  if (!existsSync(file)) return true;
  const built = statSync(file).mtimeMs;
  let inputs: string[];
  try {
    inputs = (JSON.parse(readFileSync(file, "utf8")) as { inputs: string[] }).inputs;
  } catch {
    return true;
  }
  for (const entry of SERVER_ENTRIES) if (!existsSync(path.join(root, SERVER_OUT, `${path.basename(entry, ".ts")}.js`))) return true;
  // A new import is a change of its importer, and so is a file gone (moved or deleted) from the
  // imports; a source not there at all (a deployment that ships the build without scripts/) is not a change.
  return inputs.some((f) => existsSync(path.join(root, f)) && statSync(path.join(root, f)).mtimeMs > built);
}

/** Compiles the entries to SERVER_OUT; returns the number of our source files it read and the time. */
export async function compileServer(root: string, out = SERVER_OUT): Promise<{ files: number; ms: number }> {
  // The source-path rewrite below assumes it ("../../<source>").
  if (out.split("/").length !== 2) throw new Error(`the compiled server must sit two levels under the root, not at ${out}`);
  const started = Date.now();
  // Loaded here only: the compiled server itself never loads esbuild.
  const esbuild = await import("esbuild");
  const outdir = path.join(root, out);
  rmSync(outdir, { recursive: true, force: true });
  const entries = new Set(SERVER_ENTRIES.map((e) => path.join(root, e)));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [...entries],
    outdir,
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    sourcemap: "linked",
    // Stack traces name the sources (node --enable-source-maps reads the map when asked).
    sourcesContent: false,
    metafile: true,
    logLevel: "warning",
    banner: { js: "// Compiled by scripts/lib/compile-server.ts (npm run build) from scripts/start.ts and scripts/serve.ts: edit those." },
    plugins: [
      {
        name: "entries-stay-separate",
        setup(b) {
          // start.ts imports serve.ts: load the compiled serve.js rather than bundling it into start.js.
          b.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind === "entry-point") return undefined;
            const target = path.resolve(args.resolveDir, args.path);
            if (!entries.has(target) || target === args.importer) return undefined;
            return { path: `./${path.basename(target, ".ts")}.js`, external: true };
          });
        },
      },
      {
        name: "source-paths",
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            let contents = await readFile(args.path, "utf8");
            const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
            if (entries.has(args.path) || !contents.includes(`${META}.`)) return { contents, loader };
            // The output file's URL is <root>/.next/node/x.js: "../../<source>" is the source file's URL.
            const rel = path.relative(root, args.path).split(path.sep).join("/");
            const url = `new URL(${JSON.stringify(`../../${rel}`)}, ${META}.url)`;
            contents = contents
              .replace(/\bimport\.meta\.url\b/g, `${url}.href`)
              .replace(/\bimport\.meta\.filename\b/g, `decodeURIComponent(${url}.pathname)`)
              .replace(/\bimport\.meta\.dirname\b/g, `decodeURIComponent(new URL(".", ${url}).pathname).replace(/\\/$/, "")`);
            return { contents, loader };
          });
        },
      },
    ],
  });
  // ES modules: .next/package.json (Next's) says "commonjs" for everything under .next.
  writeFileSync(path.join(outdir, "package.json"), JSON.stringify({ type: "module" }) + "\n");
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("node_modules/") && !f.includes("/node_modules/"));
  // Plus the configuration the compile read.
  for (const f of ["tsconfig.json", "package.json", "scripts/lib/compile-server.ts"]) if (!inputs.includes(f)) inputs.push(f);
  const marker = path.join(outdir, path.basename(SERVER_INPUTS));
  writeFileSync(marker, JSON.stringify({ inputs }, null, 1));
  // Dated when the compile started: a file edited while it ran makes the next check compile again.
  utimesSync(marker, new Date(started), new Date(started));
  return { files: inputs.length, ms: Date.now() - started };
}
