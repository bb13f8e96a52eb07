// Secure by default (issue 11, items 1-4), shown on a server started the way
// docs/operators/security.md says for production (security-server.ts): nothing to guess, outbound
// requests that cannot be pointed inward, bounded input, and limits before lookups. The server
// speaks for other client addresses through X-Forwarded-For, as a load balancer would. No traffic
// leaves loopback: host names are only ever resolved by a stub resolver, in this process.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { api, assertEnvelope, waitFor } from "./helpers.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { parseDatabaseUrl, root } from "../../scripts/lib/schema-engine.ts";
import { BUILD_ENV_MARKER, BUILD_WITHOUT } from "../../scripts/lib/build.ts";
import { assertDeliverableUrl, setResolver } from "@/lib/webhooks/url-policy";
import { postChecked } from "@/lib/webhooks/outbound";
import { secret, AUTH_FAILURES_PER_MINUTE, cleanEnv, collect, base, prodEnv, start, databaseUrl, live, sandbox, query, serverRssKiB, startProduction, stopProduction, REFUSED_URLS, bigPost } from "./security-server.ts";
import { startArgs } from "../../scripts/lib/server.ts";

before(startProduction);
after(stopProduction);

describe("nothing to guess", () => {
  test("a production start seeds no demo merchant, no dashboard user, prints no credentials", async () => {
    assert.doesNotMatch(start.output(), /Demo merchant|demo@example\.test|sk_test_|sk_live_/);
    // Before the operator's merchant:create, the database had none: the only merchant is ours.
    const merchants = await query<{ name: string }>("SELECT name FROM merchants");
    assert.deepEqual(merchants.map((m) => m.name), ["Tienda Segura"]);
    assert.equal((await query("SELECT id FROM dashboard_users")).length, 0);
    assert.equal((await query("SELECT id FROM dashboard_users WHERE email = 'demo@example.test'")).length, 0);
  });

  test("NODE_ENV=production without APP_ENV exits with a clear message, with or without the three secrets (npm start and next start)", async () => {
    const secrets = { AUTH_SECRET: secret("auth"), JWT_SECRET: secret("jwt"), ENCRYPTION_KEY: secret("enc") };
    for (const extra of [{}, secrets]) {
      const env = cleanEnv({ NODE_ENV: "production", DATABASE_URL: databaseUrl, PORT: String(await freePort()), ...extra }) as NodeJS.ProcessEnv;
      const viaStart = spawn(process.execPath, startArgs(), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      const s = collect(viaStart);
      assert.equal(await s.exited, 1, s.output());
      assert.match(s.output(), /NODE_ENV=production but APP_ENV is not set/);
      if (extra === secrets) assert.doesNotMatch(s.output(), /Demo merchant|simulated providers|is running at/);
      else assert.match(s.output(), /refusing to run on the built-in development secrets/);
    }

    // A bare `next start` with real-looking secrets but no APP_ENV: it used to run as development
    // (/metrics open, no two-factor, simulated payouts); now it refuses like npm start.
    const p2 = await freePort();
    const bare = spawn(path.join(root, "node_modules/.bin/next"), ["start", "-p", String(p2), "-H", "127.0.0.1"], { cwd: root, env: cleanEnv({ NODE_ENV: "production", DATABASE_URL: databaseUrl, ...secrets }) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const b = collect(bare);
    try {
      // The configuration is checked when the server starts; a request makes sure it has.
      let metrics = 0;
      const code = await Promise.race([b.exited, (async () => {
        await waitFor(async () => b.output().includes("never inferred") || (await fetch(`http://127.0.0.1:${p2}/metrics`).then((r) => ((metrics = r.status), false), () => false)), "the refusal", 60_000);
        return b.exited;
      })()]);
      assert.notEqual(code, 0);
      assert.notEqual(metrics, 200, "/metrics was never served open");
      assert.match(b.output(), /NODE_ENV=production but APP_ENV is not set/);
    } finally {
      try {
        process.kill(-bare.pid!, "SIGKILL");
      } catch {}
    }
  });

  test("metrics are no open door: /metrics without METRICS_TOKEN in production answers 404", async () => {
    const r = await fetch(`${base}/metrics`);
    assert.equal(r.status, 404);
    assert.doesNotMatch(await r.text(), /lp_http_requests_total/);
  });

  test("the build under test ran with APP_ENV=production and no runtime secret or database", () => {
    const marker = path.join(root, BUILD_ENV_MARKER);
    assert.ok(existsSync(marker), "scripts/lib/build.ts wrote its marker");
    const built = JSON.parse(readFileSync(marker, "utf8"));
    assert.equal(built.APP_ENV, "production");
    for (const k of BUILD_WITHOUT) assert.ok(built.withheld.includes(k), `${k} withheld from the build`);
    // The marker belongs to the build that is being served (written after it, same run).
    assert.ok(statSync(marker).mtimeMs >= statSync(path.join(root, ".next/BUILD_ID")).mtimeMs);
  });

  test("with no provider configured, production offers no live payout method and sending is 422 payout_method_unavailable", async () => {
    const methods = await api("/me/payout/methods", { base, key: live.secretKey });
    assert.equal(methods.status, 200, methods.text);
    assert.deepEqual(methods.body.items, []);
    const sent = await api("/me/payout/send", { base, key: live.secretKey, body: { methodId: "po_mx_spei", amount: 100 } });
    assertEnvelope(sent, "payout_method_unavailable", 422);
    assert.equal((await query("SELECT id FROM payouts")).length, 0);
    // The sandbox keeps its synthetic rails.
    const sbx = await api("/me/payout/methods", { base, key: sandbox.secretKey });
    assert.ok(sbx.body.items.some((m: { id: string }) => m.id === "sbx_po_mx_spei"));
  });
});
describe("outbound requests cannot be pointed inward", () => {
  test("set time: every form is refused for both environments (400 invalid_request, param url)", async () => {
    for (const [env, key] of [["sandbox", sandbox.secretKey], ["production", live.secretKey]] as const) {
      for (const url of REFUSED_URLS) {
        const res = await api("/webhooks", { base, key, body: { url, events: ["*"] } });
        try {
          assertEnvelope(res, "invalid_request", 400);
          assert.equal(res.body.error.param, "url");
        } catch (err) {
          throw new Error(`${env} ${url}: ${(err as Error).message}`);
        }
      }
    }
    assert.equal((await query("SELECT id FROM webhook_subscriptions")).length, 0);
  });

  test("connect time: a resolver answering public, then private, never gets a socket opened to the private address", async () => {
    let connections = 0;
    const listener = http.createServer((_req, res) => res.end("internal secrets"));
    listener.on("connection", () => connections++);
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()));
    const lport = (listener.address() as AddressInfo).port;
    try {
      for (const privateAnswer of ["127.0.0.1", "::ffff:127.0.0.1", "10.0.0.7", "169.254.169.254", "::ffff:a9fe:a9fe", "fd00:ec2::254"]) {
        for (const environment of ["sandbox", "production"] as const) {
          let calls = 0;
          setResolver(async () => (++calls === 1 ? ["93.184.216.34"] : [privateAnswer]));
          const policy = { environment, production: true };
          await assertDeliverableUrl(`https://hooks.merchant.example:${lport}/in`, environment, policy);
          await assert.rejects(postChecked(`https://hooks.merchant.example:${lport}/in`, "{}", {}, policy, 2_000), { name: "OutboundRefused" }, `${environment} ${privateAnswer}`);
          assert.equal(calls, 2);
        }
      }
      assert.equal(connections, 0, "no socket reached the private address");
    } finally {
      setResolver(null);
      listener.close();
    }
  });
});
describe("bounded input", () => {
  const MiB = 1024 * 1024;
  test("12 MiB bodies get 413 payload_too_large, authenticated or not, declared or streamed, and memory stays flat", async () => {
    // An unknown key with a body of unknown length is refused before a byte of it is read (401).
    const targets: Array<{ path: string; headers?: Record<string, string>; streamed?: [number, string] }> = [
      { path: "/api/v1/payments", headers: { authorization: `Bearer ${sandbox.secretKey}` } },
      { path: "/api/v1/webhooks", headers: { authorization: `Bearer ${live.secretKey}` } },
      { path: "/api/v1/payments", headers: { authorization: "Bearer sk_test_nobodynobodynobodynobodynobody1" }, streamed: [401, "invalid_api_key"] },
      { path: "/api/v1/auth/token" },
      { path: "/api/v1/providers/pagosur/notifications" },
      { path: "/api/v1/providers/pagosur/payouts" },
      { path: "/api/inbox/whk_unknown" },
    ];
    // Rounds 0 to 2 warm every route and error path (module loading, JIT, the heap growing to
    // its working size: the compiled server starts leaner and loads its lazy modules on first use),
    // then growth is measured over four more. A body kept would show as 12 MiB a request (672 MiB
    // in all); the bound of 48 MiB leaves room for the heap's own settling, which reached 32 MiB
    // once with two warm-up rounds on a loaded machine, and still fails if one request in
    // fourteen kept its body.
    const WARM_ROUNDS = 3;
    let before = 0;
    for (let round = 0; round < WARM_ROUNDS + 4; round++) {
      if (round === WARM_ROUNDS) before = serverRssKiB();
      for (const t of targets) {
        for (const chunked of [false, true]) {
          const res = await bigPost(`${base}${t.path}`, 12 * MiB, { chunked, headers: t.headers });
          const [status, code] = chunked && t.streamed ? t.streamed : [413, "payload_too_large"];
          assert.equal(res.status, status, `${t.path} chunked=${chunked}: ${res.text.slice(0, 200)}`);
          assert.equal(JSON.parse(res.text).error.code, code);
        }
      }
    }
    const growthMiB = (serverRssKiB() - before) / 1024;
    console.log(`# server RSS ${(before / 1024).toFixed(0)} MiB, growth after 4 x 14 bodies of 12 MiB (672 MiB offered): ${growthMiB.toFixed(1)} MiB`);
    assert.ok(growthMiB < 48, `RSS grew by ${growthMiB.toFixed(1)} MiB`);
  });

  test("limits: 1 MiB for the API, 64 KiB for provider notices and the inbox", async () => {
    const justOver = await bigPost(`${base}/api/v1/payments`, MiB + 1024, { headers: { authorization: `Bearer ${sandbox.secretKey}` } });
    assert.equal(justOver.status, 413);
    const underApi = await bigPost(`${base}/api/v1/payments`, 512 * 1024, { headers: { authorization: `Bearer ${sandbox.secretKey}` } });
    assert.equal(underApi.status, 400, "read and parsed (it is not JSON), not refused for size");
    for (const p of ["/api/v1/providers/pagosur/notifications", "/api/inbox/whk_unknown"]) {
      assert.equal((await bigPost(`${base}${p}`, 65 * 1024, { chunked: true })).status, 413, p);
      assert.notEqual((await bigPost(`${base}${p}`, 60 * 1024)).status, 413, p);
    }
  });

  test("the buyer pages' and the sign-in form posts are bounded too", async () => {
    for (const p of ["/checkout/cs_unknown/select", "/pay/sandbox/tx_unknown/action", "/api/auth/callback/credentials"]) {
      const res = await bigPost(`${base}${p}`, 12 * MiB, { chunked: true, headers: { "content-type": "application/x-www-form-urlencoded" } });
      assert.equal(res.status, 413, p);
    }
  });
});

describe("limits before lookups", () => {
  const invalidKey = () => `sk_test_${randomBytes(24).toString("base64url").replace(/[-_]/g, "a").slice(0, 32)}`;
  const from = (ip: string, key: string) => api("/me", { base, key, headers: { "x-forwarded-for": ip } });
  // Random per run: the failure counters live in Redis for a minute.
  const addr = () => `10.${randomBytes(3).join(".")}`;

  test("count before check: 300 invalid keys sent at once from one address reach at most the allowance's lookups; an IPv6 /64 is one address", async () => {
    for (const [label, addresses] of [
      ["IPv4", () => addr()],
      ["IPv6 /64", (() => { const net = `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`; return () => `${net}:${randomBytes(2).toString("hex")}::${randomBytes(2).toString("hex")}`; })()],
    ] as const) {
      const one = addresses();
      const statuses = (await Promise.all(Array.from({ length: 300 }, () => from(label === "IPv4" ? one : addresses(), invalidKey())))).map((r) => r.status);
      const lookedUp = statuses.filter((s) => s === 401).length;
      assert.ok(lookedUp >= 1 && lookedUp <= AUTH_FAILURES_PER_MINUTE, `${label}: ${lookedUp} of the burst were looked up (allowance ${AUTH_FAILURES_PER_MINUTE})`);
      assert.equal(statuses.filter((s) => s === 429).length, 300 - lookedUp, `${label}: the rest were 429`);
    }
  });

  test("a real key in a burst is never taken for guessing: 200 requests at once on a key no server has cached yet are all answered 200", async () => {
    // A new key (rolled by the operator's CLI): every request of the burst misses the cache at once,
    // as a busy merchant's requests do each time an entry expires. They share one lookup, which
    // takes one place in the failed-authentication count; 200 lookups took 200 and got 429s.
    const shopId = (await query<{ id: string }>("SELECT id FROM shops LIMIT 1"))[0]!.id;
    const roll = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "keys:roll", "--shop", shopId, "--env", "sandbox", "--json"], { cwd: root, env: cleanEnv(prodEnv) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    const rolled = collect(roll);
    assert.equal(await rolled.exited, 0, rolled.output());
    const key = /"secretKey"\s*:\s*"(sk_test_\w+)"/.exec(rolled.output())?.[1];
    assert.ok(key, rolled.output());
    const ip = addr();
    const statuses = (await Promise.all(Array.from({ length: 200 }, () => from(ip, key)))).map((r) => r.status);
    assert.deepEqual([...new Set(statuses)], [200], `statuses: ${statuses.filter((s) => s !== 200).length} not 200 (${[...new Set(statuses)].join(", ")})`);
  });

  test("count before check: 500 sign-in guesses at once for one email get 5 password checks, not 500", async () => {
    const email = `burst-${randomBytes(4).toString("hex")}@example.test`;
    const cli = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "user:create", "--merchant", (await query<{ id: string }>("SELECT id FROM merchants LIMIT 1"))[0]!.id, "--email", email, "--password", "correct horse battery staple", "--role", "viewer"], { cwd: root, env: cleanEnv(prodEnv) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    const made = collect(cli);
    assert.equal(await made.exited, 0, made.output());
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
    // Each guess from its own address: only the per-email limit applies.
    const guesses = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const res = await fetch(`${base}/api/auth/callback/credentials`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar, "x-forwarded-for": `10.${(i >> 8) & 255}.${i & 255}.${randomBytes(1)[0]}` },
          body: new URLSearchParams({ email, password: `guess-${i}-wrong`, csrfToken, callbackUrl: `${base}/dashboard` }),
        });
        return new URL(res.headers.get("location") ?? "http://x/").searchParams.get("code");
      }),
    );
    const checked = guesses.filter((c) => c === "credentials").length;
    assert.equal(checked + guesses.filter((c) => c === "throttled").length, 500, guesses.slice(0, 5).join(","));
    assert.ok(checked >= 1 && checked <= 5, `${checked} guesses had their password checked`);
  });

  test("a flood of invalid keys from one address gets 429 after the limit, and the 429s cost no database lookup", async () => {
    const flooder = addr();
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await from(flooder, invalidKey())).status);
    assert.equal(statuses.filter((s) => s === 401).length, AUTH_FAILURES_PER_MINUTE, "exactly the allowance is looked up");
    assert.ok(statuses.slice(AUTH_FAILURES_PER_MINUTE).every((s) => s === 429), "everything after it is 429");
    const limited = await from(flooder, invalidKey());
    assertEnvelope(limited, "rate_limited", 429);
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);

    // Prove "no lookup": hold an exclusive lock on the key table. Any lookup now waits for it.
    const warmKey = invalidKey();
    const other = addr();
    assert.equal((await from(other, warmKey)).status, 401); // looked up once, remembered as unknown
    assert.equal((await from(other, live.secretKey)).status, 200); // real key cached for 5 s
    const locker = new pg.Client(parseDatabaseUrl(databaseUrl));
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE api_key_pairs IN ACCESS EXCLUSIVE MODE");
    let control: Promise<unknown> | undefined;
    try {
      const t0 = Date.now();
      assert.equal((await from(flooder, live.secretKey)).status, 200, "a cached real key still serves, even from the flooding address");
      assert.equal((await from(other, warmKey)).status, 401, "an unknown key already seen answers from the negative cache");
      const answers = await Promise.all(Array.from({ length: 20 }, () => from(flooder, invalidKey())));
      assert.ok(answers.every((r) => r.status === 429), "429 while the key table is locked");
      assert.ok(Date.now() - t0 < 4_000, `answered without waiting for the lock (${Date.now() - t0} ms)`);
      // Control: a fresh key from an address under its allowance does look up, and waits.
      let settled = false;
      control = from(addr(), invalidKey()).then((r) => ((settled = true), r));
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(settled, false, "a real lookup waits for the lock: the probe above would have seen one");
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    assert.equal(((await control) as { status: number }).status, 401);
  });
});
