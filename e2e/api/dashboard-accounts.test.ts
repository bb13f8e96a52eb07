// Dashboard accounts over real HTTP: two-factor sign-in through Auth.js' own endpoints (a code
// after the password, replays refused, wrong codes throttled like passwords, recovery codes
// single-use), the production rule that holds owners and money roles at enrollment (on a second
// server started with APP_ENV=production), team rules (last owner, owners only), and the
// security log those write.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as OTPAuth from "otpauth";
import { API_URL, api, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/db";
import { createDashboardUser } from "@/lib/dashboard/users";
import { MAX_PER_EMAIL } from "@/lib/dashboard/throttle";
import { startTotpEnrollment } from "@/lib/accounts/start-totp-enrollment";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { twoFactorRequired } from "@/lib/accounts/two-factor-policy";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";
import { inviteUser } from "@/lib/accounts/invite-user";
import { AppError } from "@/lib/errors";
import type { AuthContext } from "@/lib/auth/authenticate";

after(() => db().$disconnect());

const PASSWORD = "correct horse battery staple";
const rand = () => Math.random().toString(36).slice(2, 10);

async function userOf(role: "owner" | "developer" | "viewer", merchantId?: string) {
  const m = merchantId ? null : await newMerchant();
  const email = `${role}-${rand()}@example.test`;
  const u = await createDashboardUser({ merchantId: merchantId ?? m!.merchantId, email, password: PASSWORD, role });
  return { m, merchantId: u.merchantId, email, id: u.id };
}

const codeAt = (secret: string, ms: number) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** A user with two-factor sign-in on; the enrollment used the current step, so sign-ins use the next. */
async function enrolled(role: "owner" | "developer" = "owner") {
  const u = await userOf(role);
  const e = await startTotpEnrollment(u.id);
  assert.equal(e.enabled, false);
  const secret = (e as { secret: string }).secret;
  const { recoveryCodes } = await confirmTotpEnrollment(u.id, codeAt(secret, Date.now()), { actor: u.email });
  assert.equal(recoveryCodes.length, 10);
  return { ...u, secret, recoveryCodes };
}

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

async function attempt(email: string, password: string, code?: string, base = API_URL) {
  const c = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const form = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${base}/dashboard`, ...(code === undefined ? {} : { code }) });
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(c).join("; ") },
    body: form,
  });
  const session = res.headers.getSetCookie().find((s) => /session-token=/.test(s));
  return { status: res.status, location: res.headers.get("location") ?? "", cookie: session?.split(";")[0] };
}

async function actionId(cookie: string, page: string, name: string, base = API_URL): Promise<string> {
  const html = await (await fetch(`${base}${page}`, { headers: { cookie } })).text();
  for (const src of [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!)) {
    const js = await (await fetch(`${base}${src}`)).text();
    const m = new RegExp(`"([0-9a-f]{40,})"[^"]{0,200}"${name}"`).exec(js);
    if (m) return m[1]!;
  }
  throw new Error(`server action ${name} not found in the chunks of ${page}`);
}

async function callAction(cookie: string, page: string, id: string, args: unknown[], base = API_URL) {
  const res = await fetch(`${base}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "next-action": id, origin: base, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify(args),
  });
  return { status: res.status, text: await res.text() };
}

async function eventTypes(merchantId: string) {
  const page = await listSecurityEvents({ merchant: { id: merchantId } as AuthContext["merchant"] }, { limit: 100 });
  return page.data.map((e) => e.type);
}

function ctxOf(merchantId: string, email: string): AuthContext {
  return { merchant: { id: merchantId } as AuthContext["merchant"], shop: null, environment: "sandbox", keyKind: "secret", keyPairId: `dashboard:x`, keyId: `dashboard:${email}`, via: "dashboard", ip: "203.0.113.9", actor: { kind: "user", userId: "x", email, role: "owner" } };
}

async function refusedWith(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (err: unknown) => err instanceof AppError && err.code === code);
}

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
    assert.deepEqual(await disableTotp(u.id, u.recoveryCodes[0]!, actor), { enabled: false });
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
      const r = await callAction(a.cookie!, "/dashboard/two-factor", confirm, [{ code: codeAt(shown!, Date.now()) }], server.url);
      assert.match(r.text, /"ok":true/);
      const enrolledPage = await fetch(`${server.url}/dashboard`, { headers: { cookie: a.cookie! }, redirect: "manual" });
      assert.equal(enrolledPage.status, 200);

      const v = await attempt(viewer.email, PASSWORD, undefined, server.url);
      assert.ok(v.cookie);
      assert.equal((await fetch(`${server.url}/dashboard`, { headers: { cookie: v.cookie! }, redirect: "manual" })).status, 200);
    } finally {
      await server.stop();
    }
  });
});

describe("team", () => {
  test("the last owner can be neither demoted nor removed; with a second owner both work", async () => {
    const o = await userOf("owner");
    const ctx = ctxOf(o.merchantId, o.email);
    await refusedWith(changeRole(ctx, o.id, "developer"), "last_owner");
    await refusedWith(removeUser(ctx, o.id), "last_owner");
    const o2 = await userOf("owner", o.merchantId);
    // Two owners demoting each other at once: one wins, the other finds the last owner.
    const both = await Promise.allSettled([changeRole(ctx, o.id, "viewer"), changeRole(ctxOf(o.merchantId, o2.email), o2.id, "viewer")]);
    assert.equal(both.filter((r) => r.status === "fulfilled").length, 1);
    assert.equal(await db().dashboardUser.count({ where: { merchantId: o.merchantId, role: "owner" } }), 1);
    const other = await userOf("developer");
    await refusedWith(removeUser(ctx, other.id), "dashboard_user_not_found");
  });

  test("a non-owner cannot invite (through the server action); an owner can, and the invitee signs in with the password shown once", async () => {
    const o = await userOf("owner");
    const dev = await userOf("developer", o.merchantId);
    const ownerCookie = (await attempt(o.email, PASSWORD)).cookie!;
    const devCookie = (await attempt(dev.email, PASSWORD)).cookie!;
    const invite = await actionId(ownerCookie, "/dashboard/team", "inviteUserAction");
    const newcomer = `new-${rand()}@example.test`;
    const refused = await callAction(devCookie, "/dashboard/team", invite, [{ email: newcomer, role: "owner" }]);
    assert.match(refused.text, /"code":"forbidden"/);
    assert.equal(await db().dashboardUser.count({ where: { email: newcomer } }), 0);

    const ok = await callAction(ownerCookie, "/dashboard/team", invite, [{ email: newcomer, role: "viewer" }]);
    const password = /"temporaryPassword":"([^"]+)"/.exec(ok.text)?.[1];
    assert.ok(password, ok.text.slice(0, 300));
    const signedIn = await attempt(newcomer, password!);
    assert.ok(signedIn.cookie);
    const dup = await callAction(ownerCookie, "/dashboard/team", invite, [{ email: newcomer.toUpperCase(), role: "viewer" }]);
    assert.match(dup.text, /"code":"dashboard_user_exists"/);

    // Removed: the open session ends at once.
    const remove = await actionId(ownerCookie, "/dashboard/team", "removeUserAction");
    const id = (await db().dashboardUser.findUniqueOrThrow({ where: { email: newcomer } })).id;
    assert.match((await callAction(ownerCookie, "/dashboard/team", remove, [id])).text, /"ok":true/);
    const gone = await fetch(`${API_URL}/dashboard`, { headers: { cookie: signedIn.cookie! }, redirect: "manual" });
    assert.equal(gone.status, 307);

    const types = await eventTypes(o.merchantId);
    assert.ok(types.includes("team.invited") && types.includes("team.removed"), types.join(","));
    const invited = (await listSecurityEvents({ merchant: { id: o.merchantId } as AuthContext["merchant"] }, {})).data.find((e) => e.type === "team.invited")!;
    assert.equal(invited.actor, o.email);
    assert.ok(invited.ip, "the actor's address is recorded");
  });

  test("invites are scoped and validated by the use case", async () => {
    const o = await userOf("owner");
    await refusedWith(inviteUser(ctxOf(o.merchantId, o.email), { email: o.email, role: "viewer" }), "dashboard_user_exists");
  });
});

describe("security log", () => {
  test("key rolls and webhook secrets are logged with their actor", async () => {
    const m = await newMerchant();
    const hook = await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["*"] } });
    await api(`/webhooks/${hook.body.id}/rotate-secret`, { key: m.sandbox.secretKey, body: {} });
    const { rollSecretKey } = await import("@/lib/merchants/manage-keys");
    await rollSecretKey({ shopId: m.shopId, environment: "sandbox" });
    const page = await listSecurityEvents({ merchant: { id: m.merchantId } as AuthContext["merchant"] }, {});
    const types = page.data.map((e) => e.type);
    assert.ok(types.includes("webhook_secret.revealed"), types.join(","));
    assert.ok(types.includes("webhook_secret.rotated"), types.join(","));
    assert.ok(types.includes("api_key.rolled"), types.join(","));
    assert.equal(page.data.find((e) => e.type === "api_key.rolled")!.actor, "operator");
  });
});
