// The clean-stop race, repeated: `npm start` (or `npm run serve` with DATABASE_URL) in its own
// process group, SIGTERM to the whole group (npm dies first), N times; each stop must be the
// clean one ("SIGTERM: stopping", never a launcher's death) and leave nothing listening.
//   npx tsx scripts/stress-stop.ts [runs=20]      (DATABASE_URL set: npm run serve; else npm start)
import path from "node:path";
import { freePort } from "./lib/embedded-db.ts";
import { groupAlive, listening, spawnGroup } from "./lib/process-group.ts";

const root = path.resolve(import.meta.dirname, "..");
const runs = Number(process.argv[2] ?? 20);
const script = process.env.DATABASE_URL ? "serve" : "start";

async function until(check: () => Promise<boolean> | boolean, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let failed = 0;
for (let i = 1; i <= runs; i++) {
  const port = await freePort();
  const { child, output } = spawnGroup("npm", ["run", "--silent", script], { cwd: root, env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SERVE_WITH_PARENT: "" } });
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, "the server", 120_000);
    const t0 = Date.now();
    process.kill(-child.pid!, "SIGTERM");
    await until(() => !groupAlive(child.pid!), "the group to exit", 15_000);
    const clean = /SIGTERM: stopping/.test(output()) && !/gone/.test(output()) && !(await listening(port));
    if (!clean) failed++;
    console.log(`run ${i}: ${clean ? "clean" : "NOT CLEAN"} stop in ${Date.now() - t0} ms${clean ? "" : `\n${output().slice(-1500)}`}`);
  } catch (err) {
    failed++;
    console.log(`run ${i}: ${(err as Error).message}\n${output().slice(-1500)}`);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
  }
}
console.log(`\n${runs - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
