// The compiled server (scripts/lib/compile-server.ts) as the production process loads it: no
// transpiler, and what a production start does not run is not loaded by it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { compileServer } from "./compile-server.ts";
import { root } from "./schema-engine.ts";

const OUT = `.next/node-test-${process.pid}`;

/** The files and packages an entry loads before any of its code runs (static imports, transitively). */
function staticGraph(dir: string, entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(path.join(dir, file), "utf8");
    // Static imports only: `import x from "y"`, `import "y"`, `export … from "y"` (not `import("y")`).
    for (const m of code.matchAll(/^\s*(?:import|export)\s*(?:[^"'()]*?\sfrom\s*)?["']([^"']+)["']/gm)) {
      const spec = m[1]!;
      if (spec.startsWith("./")) visit(spec.slice(2));
      else if (!spec.startsWith("node:")) packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

test("the server compiles to plain JavaScript that loads no transpiler, tracing, PGlite or simulator up front", { timeout: 120_000 }, async (t) => {
  t.after(() => rmSync(path.join(root, OUT), { recursive: true, force: true }));
  const { files } = await compileServer(root, OUT);
  const dir = path.join(root, OUT);
  const inputs = (JSON.parse(readFileSync(path.join(dir, "inputs.json"), "utf8")) as { inputs: string[] }).inputs;
  assert.ok(files > 20 && inputs.includes("scripts/serve.ts") && inputs.includes("scripts/lib/app-server.ts"), "the staleness check knows the server's sources");
  for (const entry of ["start.js", "serve.js", "tracing-first.js", "migrate.js"]) {
    assert.ok(existsSync(path.join(dir, entry)), entry);
    const { files: loaded, packages } = staticGraph(dir, entry);
    const forbidden = [...packages].filter((p) => /^(tsx|esbuild|@electric-sql\/pglite|@opentelemetry\/)/.test(p));
    assert.deepEqual(forbidden, [], `${entry} loads ${forbidden.join(", ")} before it runs`);
    const code = [...loaded].map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
    if (entry !== "migrate.js") assert.doesNotMatch(code, /^\/\/ scripts\/(psp|custody)\//m, `${entry} loads a simulator up front`);
    assert.doesNotMatch(code, /^\/\/ lib\/platform\/telemetry\//m, `${entry} loads tracing up front`);
  }
  // ES modules under .next, whose own package.json says "commonjs".
  assert.equal((JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { type: string }).type, "module");
  // start.js runs serve.js as its own file (the cluster forks serve.js), not a copy folded into it.
  assert.match(readFileSync(path.join(dir, "start.js"), "utf8"), /from "\.\/serve\.js"/);
  // A bundled file's import.meta names its source file: the root computed from it is the root.
  const schemaChunk = [...staticGraph(dir, "start.js").files].map((f) => readFileSync(path.join(dir, f), "utf8")).find((c) => c.includes("// scripts/lib/schema-engine.ts"));
  assert.match(schemaChunk ?? "", /new URL\("\.\.\/\.\.\/scripts\/lib\/schema-engine\.ts", import\.meta\.url\)/);
  // And the entries carry no absolute path of this machine (a build copied elsewhere still runs).
  for (const entry of ["start.js", "serve.js"]) assert.doesNotMatch(readFileSync(path.join(dir, entry), "utf8"), new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
});
