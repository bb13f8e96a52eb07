// Dashboard session versions over real HTTP: enrolment, disabling two-factor, a password change
// and a role change end every other session (the one that did it goes on); and the security log
// those and key rolls and webhook secrets write, with their actor.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { PASSWORD, userOf, codeAt, attempt, actionId, callAction, sessionStatus, eventTypes } from "./dashboard-accounts-fixtures.ts";

after(() => db().$disconnect());

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
