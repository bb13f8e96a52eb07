import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SERVER_PROCESS_ENV, serverProcessEnv } from "./process-env.ts";
import { root } from "./schema-engine.ts";

const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

// What the server process of `npm start` / `npm run serve` sees: the script run by sh, as npm runs
// it, with node replaced by a printer of the environment.
function envOf(script: string, env: Record<string, string>): Record<string, string> {
  const printed = execFileSync("sh", ["-c", script.replace(/\bnode \S+/, `"${process.execPath}" -e "process.stdout.write(JSON.stringify(process.env))"`)], { env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv, encoding: "utf8" });
  return JSON.parse(printed) as Record<string, string>;
}

for (const name of ["start", "serve"]) {
  test(`npm ${name === "start" ? "start" : "run serve"} sets the server's process environment, and an operator's own value wins`, () => {
    const defaults = envOf(scripts[name]!, {});
    for (const [k, v] of Object.entries(SERVER_PROCESS_ENV)) assert.equal(defaults[k], v, `${name}: ${k}`);
    const own = envOf(scripts[name]!, { MALLOC_ARENA_MAX: "4" });
    assert.equal(own.MALLOC_ARENA_MAX, "4");
  });
}

test("tests and benchmarks start the same environment: defaults under the caller's values", () => {
  assert.deepEqual(serverProcessEnv({ PORT: "1" }), { ...SERVER_PROCESS_ENV, PORT: "1" });
  assert.equal(serverProcessEnv({ MALLOC_ARENA_MAX: "8" }).MALLOC_ARENA_MAX, "8");
});
