// Two-factor sign-in over real HTTP, through Auth.js' own endpoints: a code after the password,
// replays refused, wrong codes throttled like passwords, recovery codes single-use, turning it off,
// secrets sealed at rest; and the production rule that holds owners and money roles at enrolment
// (on a second server started with APP_ENV=production; a password-only session never gains money
// rights from an enrolment elsewhere).
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { API_URL, extraServer, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { MAX_PER_EMAIL } from "@/lib/accounts/throttle";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { PASSWORD, userOf, codeAt, enrolled, cookiesOf, attempt, actionId, callAction, sessionStatus, eventTypes, refusedWith } from "./dashboard-accounts-fixtures.ts";

after(() => db().$disconnect());

describe("two-factor sign-in", () => {
  test("required in production for owners and money roles; optional elsewhere", () => {
    assert.equal(twoFactorRequired("owner", "production"), true);
    assert.equal(twoFactorRequired("developer", "production"), true);
    assert.equal(twoFactorRequired("viewer", "production"), false);
    for (const env of ["development", "test"]) for (const role of ["owner", "developer", "viewer"] as const) assert.equal(twoFactorRequired(role, env), false);
  });

  test("password alone asks for the code; a wrong code is refused; the right one signs in; the same code again is refused", async () => {
    const u = await enrolled();
    const noCode = await attempt(u.email, PASSWORD);
    assert.equal(noCode.cookie, undefined);
    assert.match(noCode.location, /code=code_required/);
    const wrongPassword = await attempt(u.email, "wrong-password-123", codeAt(u.secret, Date.now() + 30_000));
    assert.match(wrongPassword.location, /code=credentials/);

    const next = codeAt(u.secret, Date.now() + 30_000);
    const wrong = await attempt(u.email, PASSWORD, next === "000000" ? "000001" : "000000");
    assert.equal(wrong.cookie, undefined);
    assert.match(wrong.location, /code=code_invalid/);

    const ok = await attempt(u.email, PASSWORD, next);
    assert.ok(ok.cookie, `no session: ${ok.location}`);
    const page = await fetch(`${API_URL}/dashboard`, { headers: { cookie: ok.cookie! }, redirect: "manual" });
    assert.equal(page.status, 200);

    const replay = await attempt(u.email, PASSWORD, next);
    assert.equal(replay.cookie, undefined, "a code is accepted once");
    assert.match(replay.location, /code=code_invalid/);

    const types = await eventTypes(u.merchantId);
    assert.deepEqual(types.filter((t) => t.startsWith("sign_in.")), ["sign_in.failed", "sign_in.succeeded", "sign_in.failed", "sign_in.failed"]);
    assert.ok(types.includes("two_factor.enabled"));
  });

  test("a recovery code signs in once", async () => {
    const u = await enrolled("developer");
    const code = u.recoveryCodes[3]!;
    const first = await attempt(u.email, PASSWORD, code.toUpperCase());
    assert.ok(first.cookie, `no session: ${first.location}`);
    const again = await attempt(u.email, PASSWORD, code);
    assert.equal(again.cookie, undefined);
    assert.match(again.location, /code=code_invalid/);
    assert.equal(await db().dashboardRecoveryCode.count({ where: { userId: u.id, usedAt: { not: null } } }), 1);
    assert.ok((await eventTypes(u.merchantId)).includes("recovery_code.used"));
  });

  test(`wrong codes count like wrong passwords: after ${MAX_PER_EMAIL} the right code is throttled too`, async () => {
    const u = await enrolled();
    for (let i = 0; i < MAX_PER_EMAIL; i++) {
      const a = await attempt(u.email, PASSWORD, `${i}${i}${i}-bad-${i}`);
      assert.match(a.location, /code=code_invalid/);
    }
    const blocked = await attempt(u.email, PASSWORD, codeAt(u.secret, Date.now() + 30_000));
    assert.equal(blocked.cookie, undefined);
    assert.match(blocked.location, /code=throttled/);
  });

  test("turning it off needs a valid code; afterwards the password alone signs in again", async () => {
    const u = await enrolled();
    const actor = { actor: u.email, ip: "198.51.100.7" };
    await refusedWith(disableTotp(u.id, "12345-67890", actor), "two_factor_invalid");
    assert.equal((await disableTotp(u.id, u.recoveryCodes[0]!, actor)).enabled, false);
    assert.equal(await db().dashboardRecoveryCode.count({ where: { userId: u.id } }), 0);
    assert.ok((await attempt(u.email, PASSWORD)).cookie);
    assert.ok((await eventTypes(u.merchantId)).includes("two_factor.disabled"));
  });

  test("the TOTP secret is sealed at rest and recovery codes are stored hashed", async () => {
    const u = await enrolled();
    const row = await db().dashboardUser.findUniqueOrThrow({ where: { id: u.id }, select: { totpSecret: true } });
    assert.match(row.totpSecret!, /^v1\./);
    assert.ok(!row.totpSecret!.includes(u.secret));
    const hashes = await db().dashboardRecoveryCode.findMany({ where: { userId: u.id }, select: { codeHash: true } });
    assert.equal(hashes.length, 10);
    for (const c of u.recoveryCodes) assert.ok(!hashes.some((h) => h.codeHash.includes(c.replace("-", ""))));
  });
});

describe("production: two-factor is required", () => {
  test("an owner without it is held at enrollment until enrolled; a viewer is not; a wrong password is logged at info", async () => {
    const secret = () => randomBytes(32).toString("base64url");
    const server = await extraServer(
      { ...(process.env as Record<string, string>), APP_ENV: "production", APP_URL: "https://dashboard.localtest", AUTH_SECRET: secret(), JWT_SECRET: secret(), ENCRYPTION_KEY: secret(), ENABLE_TEST_FIXTURES: "", LOG_LEVEL: "info", REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" },
      { captureOutput: true },
    );
    try {
      const owner = await userOf("owner");
      const viewer = await userOf("viewer", owner.merchantId);

      const bad = await attempt(owner.email, "wrong-password-123", undefined, server.url);
      assert.equal(bad.cookie, undefined);
      const refusal = await waitFor(
        async () => server.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).find((l) => l.msg === "dashboard sign-in refused"),
        "the refused sign-in's log line",
      );
      assert.equal(refusal.level, "info");
      assert.ok(!server.output().includes('"level":"error"'), "no error-level line for a wrong password");

      const a = await attempt(owner.email, PASSWORD, undefined, server.url);
      assert.ok(a.cookie, `no session: ${a.location}`);
      for (const path of ["/dashboard", "/dashboard/payments", "/dashboard/team"]) {
        const page: Response = await fetch(`${server.url}${path}`, { headers: { cookie: a.cookie! }, redirect: "manual" });
        assert.equal(page.status, 307, path);
        assert.equal(new URL(page.headers.get("location")!, server.url).pathname, "/dashboard/two-factor");
      }
      const data = await fetch(`${server.url}/dashboard/api/payments`, { headers: { cookie: a.cookie! } });
      assert.equal(data.status, 403);
      assert.equal(((await data.json()) as any).error.code, "two_factor_required");

      // Enrollment works from the page it is sent to: the secret shown there, a code from it.
      const html = await (await fetch(`${server.url}/dashboard/two-factor`, { headers: { cookie: a.cookie! } })).text();
      const shown = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
      assert.ok(shown, "the secret is shown");
      const confirm = await actionId(a.cookie!, "/dashboard/two-factor", "confirmTotpAction", server.url);
      // A second, password-only session of the same owner, open while the first one enrolls.
      const elsewhere = await attempt(owner.email, PASSWORD, undefined, server.url);
      assert.ok(elsewhere.cookie);
      const r = await callAction(a.cookie!, "/dashboard/two-factor", confirm, [{ code: codeAt(shown!, Date.now()) }], server.url);
      assert.match(r.text, /"ok":true/);
      assert.ok(r.cookie, "the enrolling session continues under the new version");
      const enrolledPage = await fetch(`${server.url}/dashboard`, { headers: { cookie: r.cookie! }, redirect: "manual" });
      assert.equal(enrolledPage.status, 200);
      assert.equal(await sessionStatus(r.cookie!, server.url), 200);
      // The password-only session never gains money rights from the enrolment: it has ended.
      assert.equal(await sessionStatus(elsewhere.cookie!, server.url), 401);
      const held = await fetch(`${server.url}/dashboard/payouts`, { headers: { cookie: elsewhere.cookie! }, redirect: "manual" });
      assert.equal(new URL(held.headers.get("location")!, server.url).pathname, "/dashboard/sign-in");
      // Nor does a client's own claim through the session update endpoint (only a server-signed grant counts).
      const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers: { cookie: elsewhere.cookie! } });
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const forged = await fetch(`${server.url}/api/auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: [elsewhere.cookie!, ...cookiesOf(csrf)].join("; ") },
        body: JSON.stringify({ csrfToken, data: { grant: `${owner.id}.1.1.${Date.now() + 60_000}.forged`, sessionVersion: 1, secondFactor: true } }),
      });
      const forgedCookie = forged.headers.getSetCookie().find((c) => /session-token=/.test(c))?.split(";")[0] ?? elsewhere.cookie!;
      assert.equal(await sessionStatus(forgedCookie, server.url), 401);

      const v = await attempt(viewer.email, PASSWORD, undefined, server.url);
      assert.ok(v.cookie);
      assert.equal((await fetch(`${server.url}/dashboard`, { headers: { cookie: v.cookie! }, redirect: "manual" })).status, 200);
    } finally {
      await server.stop();
    }
  });
});
