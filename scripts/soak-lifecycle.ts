// The clean-stop soak of issue 26: the start/restart test and the process-lifecycle tests run N
// times in a row while a second test suite runs beside them (a loaded machine), and every run must
// pass. Each run is `npm test -- --api process-lifecycle start-restart` (its own database, its own
// servers, a fresh clone's `npm start`); the suite beside runs in a loop until the soak ends.
//   npx tsx scripts/soak-lifecycle.ts [runs=20] [--beside="npm test -- --unit"] [--keep-going]
// Prints one line per run (result, seconds, load average) and a summary; exits 1 on any failure.
import { spawn, type ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const runs = Number(argv.find((a) => /^\d+$/.test(a)) ?? 20);
const besideArg = argv.find((a) => a.startsWith("--beside="));
const beside = besideArg === undefined ? "npm test -- --unit" : besideArg.slice("--beside=".length);
const keepGoing = argv.includes("--keep-going");
const logDir = path.join(root, "test-results/soak");
mkdirSync(logDir, { recursive: true });

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");

function run(cmd: string): { child: ChildProcess; done: Promise<{ code: number; output: string }> } {
  const child = spawn("bash", ["-c", cmd], { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, done: new Promise((resolve) => child.on("exit", (code) => resolve({ code: code ?? 1, output }))) };
}

// The load beside: the suite again and again until the soak is over.
let stopBeside = false;
let besideRuns = 0;
let current: ChildProcess | undefined;
const besideLoop = (async () => {
  if (!beside) return;
  while (!stopBeside) {
    const r = run(beside);
    current = r.child;
    await r.done;
    besideRuns++;
  }
})();

let failed = 0;
let ran = 0;
const t0 = Date.now();
for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const loadBefore = load();
  const { code, output } = await run("npm test -- --api process-lifecycle start-restart").done;
  const secs = Math.round((Date.now() - started) / 1000);
  const summary = output.match(/tests: (\d+ passed.*)/)?.[1] ?? "";
  const ok = code === 0;
  ran++;
  if (!ok) {
    failed++;
    writeFileSync(path.join(logDir, `run-${i}.log`), output);
  }
  console.log(`run ${String(i).padStart(2)}/${runs}: ${ok ? "pass" : "FAIL"} in ${secs}s, load ${loadBefore} -> ${load()} ${summary}${ok ? "" : ` (log: test-results/soak/run-${i}.log)`}`);
  if (!ok && !keepGoing) break;
}
stopBeside = true;
if (current?.pid) {
  try {
    process.kill(-current.pid, "SIGTERM");
  } catch {}
}
await besideLoop;
console.log(`\n${ran - failed}/${ran} runs passed${failed ? ` (${failed} failed)` : ""}${ran < runs ? `, stopped at the first failure of ${runs}` : ""} in ${Math.round((Date.now() - t0) / 60000)} min; the suite beside ("${beside}") ran ${besideRuns} times`);
process.exit(failed ? 1 : 0);
