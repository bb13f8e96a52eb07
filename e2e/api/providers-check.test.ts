// `npm run providers:check` as an operator runs it: against each real provider's simulator (the
// provider's own wire format and auth), one line per configured provider, "ok" for good keys,
// "credentials refused" for a wrong one, "unreachable" for a host that does not answer; the exit
// code says whether all were ok. No secret is printed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { startRealSimulators, type RunningSimulator } from "../../scripts/psp/real-simulators.ts";
import { providerEnvNames } from "@/lib/providers/registry";

const root = path.resolve(import.meta.dirname, "../..");
let sims: RunningSimulator[] = [];
let env: Record<string, string> = {};
before(async () => ({ sims, env } = await startRealSimulators("http://127.0.0.1:9")));
after(async () => {
  for (const s of sims) await s.stop();
});

/**
 * The command with only the given providers' variables (none of the suite's simulated ones); run
 * asynchronously, since the simulators answering it live in this process.
 */
function check(vars: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PROVIDER_")));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/providers-check.ts"], { cwd: root, env: { ...base, ...vars } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
}
const line = (out: string, code: string) => out.split("\n").find((l) => l.startsWith(`${code} `)) ?? "";

test("against the three simulators: ok for each, exit 0", async () => {
  const r = await check(env);
  assert.equal(r.code, 0, r.out);
  for (const code of ["stripe", "mercadopago", "ebanx"]) assert.match(line(r.out, code), /^\S+\s+ok\b/, r.out);
  const secrets = (["stripe", "mercadopago", "ebanx"] as const).flatMap((code) => [env[providerEnvNames(code).secret]!, env[providerEnvNames(code).noticeSecret]!]);
  assert.equal(secrets.filter(Boolean).length, 6);
  for (const secret of secrets) assert.ok(!r.out.includes(secret.slice(0, 40)), "no secret printed");
});

test("a wrong key is 'credentials refused' for that provider alone; exit 1", async () => {
  for (const [code, wrong] of [["stripe", "sk_test_wrongwrongwrongwrong"], ["mercadopago", "TEST-0000000000-wrongwrongwrong"], ["ebanx", "wrong_integration_key_0000"]] as const) {
    const r = await check({ ...env, [providerEnvNames(code).secret]: wrong });
    assert.equal(r.code, 1, r.out);
    assert.match(line(r.out, code), /credentials refused/, r.out);
    for (const other of ["stripe", "mercadopago", "ebanx"].filter((c) => c !== code)) assert.match(line(r.out, other), /^\S+\s+ok\b/, r.out);
  }
});

test("a host that does not answer is 'unreachable'", async () => {
  const r = await check({ ...env, PROVIDER_STRIPE_URL: "http://127.0.0.1:9" });
  assert.equal(r.code, 1, r.out);
  assert.match(line(r.out, "stripe"), /unreachable/, r.out);
});
