// Builds the package as published: ESM (dist/esm) and CommonJS (dist/cjs), each with type
// declarations, by tsc alone. Sources import each other as `./x.ts` (run as is by tsx in the
// repository); tsc rewrites those to `./x.js` in the JavaScript, and this rewrites them in the
// declarations too. `npm pack` runs it (prepack).
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync(path.join(here, "dist"), { recursive: true, force: true });
for (const project of ["tsconfig.build.json", "tsconfig.cjs.json"]) {
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(here, project)], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
writeFileSync(path.join(here, "dist/cjs/package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
for (const dir of ["dist/esm", "dist/cjs"]) {
  for (const f of readdirSync(path.join(here, dir)).filter((f) => f.endsWith(".d.ts"))) {
    const file = path.join(here, dir, f);
    writeFileSync(file, readFileSync(file, "utf8").replace(/(["'])(\.\.?\/[^"']+)\.ts\1/g, "$1$2.js$1"));
  }
}
chmodSync(path.join(here, "dist/esm/cli.js"), 0o755);
console.log("sdk: built dist/esm and dist/cjs");
