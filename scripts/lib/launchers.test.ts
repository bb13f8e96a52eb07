import { test } from "node:test";
import assert from "node:assert/strict";
import { serviceLaunchers, readProc, type ProcInfo } from "./launchers.ts";

// A process table: pid -> [ppid, comm, cmdline].
function table(rows: Record<number, [number, string, string]>) {
  return (pid: number): ProcInfo | null => {
    const r = rows[pid];
    return r ? { pid, ppid: r[0], comm: r[1], cmdline: r[2].split(" ") } : null;
  };
}

// npm start from a deploy script: script (bash 100) -> npm (200) -> sh -c (300) -> node (us).
const deploy = table({ 300: [200, "sh", "sh -c node --import tsx scripts/start.ts"], 200: [100, "npm start", "npm start"], 100: [1, "bash", "bash deploy.sh"] });

test("npm start: leaves with npm and its sh -c, never with the script above npm", () => {
  assert.deepEqual(serviceLaunchers({ npm_lifecycle_event: "start" }, 300, deploy), [300, 200]);
});

test("npm started by path (node npm-cli.js start) is recognised by its cmdline", () => {
  const read = table({ 300: [200, "sh", "sh -c node x"], 200: [1, "node", "/usr/bin/node /usr/lib/node_modules/npm/bin/npm-cli.js start"] });
  assert.deepEqual(serviceLaunchers({ npm_lifecycle_event: "start" }, 300, read), [300, 200]);
});

test("started by a shell or script directly (nohup node scripts/serve.ts &): leaves with nobody", () => {
  const read = table({ 100: [1, "bash", "bash deploy.sh"] });
  assert.deepEqual(serviceLaunchers({}, 100, read), []);
});

test("npm's variables inherited through a non-shell process (a test runner under npm test): leaves with nobody", () => {
  const read = table({ 400: [200, "node", "node runner.js"], 200: [1, "npm test", "npm test"] });
  assert.deepEqual(serviceLaunchers({ npm_lifecycle_event: "test" }, 400, read), []);
});

test("a supervisor that declares itself part of the service (SERVE_WITH_PARENT=1) is the one launcher", () => {
  assert.deepEqual(serviceLaunchers({ SERVE_WITH_PARENT: "1", npm_lifecycle_event: "start" }, 300, deploy), [300]);
});

test("an orphan (parent init) or an unreadable chain watches nobody", () => {
  assert.deepEqual(serviceLaunchers({ npm_lifecycle_event: "start" }, 1, deploy), []);
  assert.deepEqual(serviceLaunchers({ npm_lifecycle_event: "start" }, 999, deploy), []);
});

test("readProc reads this process (comm, parent, cmdline)", () => {
  const me = readProc(process.pid)!;
  assert.equal(me.ppid, process.ppid);
  assert.ok(me.cmdline.length > 0);
  assert.equal(readProc(2 ** 22 + 12345), null);
});
