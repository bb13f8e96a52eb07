// Dashboard accounts over real HTTP: two-factor sign-in through Auth.js' own endpoints (a code
// after the password, replays refused, wrong codes throttled like passwords, recovery codes
// single-use), the production rule that holds owners and money roles at enrollment (on a second
// server started with APP_ENV=production; a password-only session never gains money rights from an
// enrolment elsewhere), session versions (enrolment, disabling, a password change and a role
// change end every other session), team rules (last owner, owners only, one-time invite links,
// an invite submitted twice made once), and the security log those write.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as OTPAuth from "otpauth";
import { API_URL, api, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { createDashboardUser } from "@/lib/accounts/users";
import { MAX_PER_EMAIL } from "@/lib/accounts/throttle";
import { startTotpEnrollment } from "@/lib/accounts/start-totp-enrollment";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";
import { inviteUser, renewInvite } from "@/lib/accounts/invite-user";
import { acceptInvite } from "@/lib/accounts/accept-invite";
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

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
  // A session the action let continue under a new version comes back as a new cookie.
  const renewed = res.headers.getSetCookie().find((c) => /session-token=/.test(c))?.split(";")[0];
  return { status: res.status, text: await res.text(), cookie: renewed && !/session-token=$/.test(renewed) ? renewed : undefined };
}

/** 200 while the session serves, 401 once it has ended (the data route answers, never redirects). */
const sessionStatus = async (cookie: string, base = API_URL) => (await fetch(`${base}/dashboard/api/payments`, { headers: { cookie } })).status;

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

  test("a non-owner cannot invite (through the server action); an owner's invite is a one-time link, and a double submit invites once", async () => {
    const o = await userOf("owner");
    const dev = await userOf("developer", o.merchantId);
    const ownerCookie = (await attempt(o.email, PASSWORD)).cookie!;
    const devCookie = (await attempt(dev.email, PASSWORD)).cookie!;
    const invite = await actionId(ownerCookie, "/dashboard/team", "inviteUserAction");
    const newcomer = `new-${rand()}@example.test`;
    const refused = await callAction(devCookie, "/dashboard/team", invite, [{ email: newcomer, role: "owner" }, `form_${rand()}`]);
    assert.match(refused.text, /"code":"forbidden"/);
    assert.equal(await db().dashboardUser.count({ where: { email: newcomer } }), 0);

    // The same form submitted twice at once (a double click): one member, two answers with a link, no "already exists".
    const formKey = `form_${rand()}${rand()}`;
    const [first, second] = await Promise.all([0, 1].map(() => callAction(ownerCookie, "/dashboard/team", invite, [{ email: newcomer, role: "viewer" }, formKey])));
    for (const r of [first!, second!]) {
      assert.match(r.text, /"ok":true/, r.text.slice(0, 300));
      assert.doesNotMatch(r.text, /dashboard_user_exists|temporaryPassword/);
    }
    assert.equal(await db().dashboardUser.count({ where: { email: newcomer } }), 1);
    const links = [first!, second!].map((r) => /"inviteUrl":"([^"]+)"/.exec(r.text)?.[1]).filter(Boolean) as string[];
    assert.equal(links.length, 2, "both answers carry a link");
    // A later submit of a new form for the same address is a new request: "already exists".
    const dup = await callAction(ownerCookie, "/dashboard/team", invite, [{ email: newcomer.toUpperCase(), role: "viewer" }, `form_${rand()}`]);
    assert.match(dup.text, /"code":"dashboard_user_exists"/);

    // The token is stored only as its hash; the link works once.
    const row = await db().dashboardUser.findUniqueOrThrow({ where: { email: newcomer } });
    const live = await (async () => {
      for (const link of links) {
        const token = link.split("/").pop()!;
        assert.ok(!row.inviteTokenHash!.includes(token) && row.inviteTokenHash !== token);
        const page = await (await fetch(`${API_URL}/dashboard/invite/${token}`)).text();
        if (page.includes("Choose your password")) return token;
      }
      return null;
    })();
    assert.ok(live, "the last link handed out is live");
    assert.equal(await attempt(newcomer, "anything at all 123").then((a) => a.cookie), undefined, "no password works before the invite is accepted");
    const accept = await actionId("", `/dashboard/invite/${live}`, "acceptInviteAction");
    const chosen = `their own password ${rand()}`;
    const accepted = await callAction("", `/dashboard/invite/${live}`, accept, [live, { password: chosen }]);
    assert.match(accepted.text, /"ok":true/, accepted.text.slice(0, 300));
    const again = await callAction("", `/dashboard/invite/${live}`, accept, [live, { password: "someone else's 1234" }]);
    assert.match(again.text, /"code":"invalid_request"/);
    assert.match(await (await fetch(`${API_URL}/dashboard/invite/${live}`)).text(), /not valid any more/);
    const signedIn = await attempt(newcomer, chosen);
    assert.ok(signedIn.cookie, `no session: ${signedIn.location}`);
    assert.equal((await db().dashboardUser.findUniqueOrThrow({ where: { email: newcomer } })).inviteTokenHash, null);

    // Removed: the open session ends at once.
    const remove = await actionId(ownerCookie, "/dashboard/team", "removeUserAction");
    assert.match((await callAction(ownerCookie, "/dashboard/team", remove, [row.id])).text, /"ok":true/);
    const gone = await fetch(`${API_URL}/dashboard`, { headers: { cookie: signedIn.cookie! }, redirect: "manual" });
    assert.equal(gone.status, 307);

    const types = await eventTypes(o.merchantId);
    assert.ok(types.includes("team.invited") && types.includes("team.invite_accepted") && types.includes("team.removed"), types.join(","));
    const invited = (await listSecurityEvents({ merchant: { id: o.merchantId } as AuthContext["merchant"] }, {})).data.find((e) => e.type === "team.invited")!;
    assert.equal(invited.actor, o.email);
    assert.ok(invited.ip, "the actor's address is recorded");
  });

  test("an invite link expires; a new link replaces the old one", async () => {
    const o = await userOf("owner");
    const ctx = ctxOf(o.merchantId, o.email);
    const first = await inviteUser(ctx, { email: `late-${rand()}@example.test`, role: "viewer" });
    const oldToken = first.inviteUrl!.split("/").pop()!;
    const renewed = await renewInvite(ctx, first.id);
    const newToken = renewed.inviteUrl!.split("/").pop()!;
    assert.notEqual(newToken, oldToken);
    await refusedWith(acceptInvite(oldToken, "a fine long password"), "invalid_request");
    await db().dashboardUser.update({ where: { id: first.id }, data: { inviteExpiresAt: new Date(Date.now() - 1000) } });
    await refusedWith(acceptInvite(newToken, "a fine long password"), "invalid_request");
    const fresh = await renewInvite(ctx, first.id);
    assert.deepEqual(await acceptInvite(fresh.inviteUrl!.split("/").pop()!, "a fine long password"), { email: first.email });
    assert.equal((await renewInvite(ctx, first.id)).inviteUrl, null, "accepted: no more links");
  });

  test("invites are scoped and validated by the use case", async () => {
    const o = await userOf("owner");
    await refusedWith(inviteUser(ctxOf(o.merchantId, o.email), { email: o.email, role: "viewer" }), "dashboard_user_exists");
  });
});

describe("sessions carry a version", () => {
  test("a password change keeps the changing session and ends every other one; the new password signs in", async () => {
    const u = await userOf("developer");
    const a = (await attempt(u.email, PASSWORD)).cookie!;
    const b = (await attempt(u.email, PASSWORD)).cookie!;
    assert.equal(await sessionStatus(a), 200);
    const change = await actionId(b, "/dashboard/password", "changePasswordAction");
    const wrong = await callAction(b, "/dashboard/password", change, [{ currentPassword: "not it at all", newPassword: "a new long password 1" }]);
    assert.match(wrong.text, /"param":"currentPassword"/);
    assert.equal(await sessionStatus(a), 200, "a refused change ends nothing");
    const ok = await callAction(b, "/dashboard/password", change, [{ currentPassword: PASSWORD, newPassword: "a new long password 1" }]);
    assert.match(ok.text, /"ok":true/, ok.text.slice(0, 300));
    assert.ok(ok.cookie);
    assert.equal(await sessionStatus(ok.cookie!), 200);
    assert.equal(await sessionStatus(b), 401, "the old cookie of the changing session is spent too");
    assert.equal(await sessionStatus(a), 401);
    assert.equal((await attempt(u.email, PASSWORD)).cookie, undefined);
    assert.ok((await attempt(u.email, "a new long password 1")).cookie);
    assert.ok((await eventTypes(u.merchantId)).includes("password.changed"));
  });

  test("enrolling in two-factor and disabling it end every other session; the session that did it goes on", async () => {
    const u = await userOf("owner");
    const other = (await attempt(u.email, PASSWORD)).cookie!;
    const mine = (await attempt(u.email, PASSWORD)).cookie!;
    const html = await (await fetch(`${API_URL}/dashboard/two-factor`, { headers: { cookie: mine } })).text();
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
    assert.ok(secret);
    const confirm = await actionId(mine, "/dashboard/two-factor", "confirmTotpAction");
    const enrolledAt = Date.now();
    const on = await callAction(mine, "/dashboard/two-factor", confirm, [{ code: codeAt(secret!, enrolledAt) }]);
    assert.match(on.text, /"ok":true/);
    assert.equal(await sessionStatus(other), 401);
    assert.equal(await sessionStatus(on.cookie!), 200);

    // A second session, signed in with the code; then the first turns two-factor off.
    const second = (await attempt(u.email, PASSWORD, codeAt(secret!, enrolledAt + 30_000))).cookie!;
    assert.equal(await sessionStatus(second), 200);
    const codes = JSON.parse(/"recoveryCodes":(\[[^\]]*\])/.exec(on.text)![1]!) as string[];
    const disable = await actionId(on.cookie!, "/dashboard/two-factor", "disableTotpAction");
    const off = await callAction(on.cookie!, "/dashboard/two-factor", disable, [{ code: codes[0] }]);
    assert.match(off.text, /"ok":true/, off.text.slice(0, 300));
    assert.equal(await sessionStatus(second), 401);
    assert.equal(await sessionStatus(off.cookie!), 200);
  });

  test("a role change ends the member's sessions; the owner's own goes on", async () => {
    const o = await userOf("owner");
    const dev = await userOf("developer", o.merchantId);
    const ownerCookie = (await attempt(o.email, PASSWORD)).cookie!;
    const devCookie = (await attempt(dev.email, PASSWORD)).cookie!;
    const role = await actionId(ownerCookie, "/dashboard/team", "changeRoleAction");
    assert.match((await callAction(ownerCookie, "/dashboard/team", role, [dev.id, "viewer"])).text, /"ok":true/);
    assert.equal(await sessionStatus(devCookie), 401, "signed in as a developer, it does not go on as a viewer");
    assert.equal(await sessionStatus(ownerCookie), 200);
    const again = (await attempt(dev.email, PASSWORD)).cookie!;
    assert.equal(await sessionStatus(again), 200);
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
