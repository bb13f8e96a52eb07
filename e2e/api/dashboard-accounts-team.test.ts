// Dashboard team rules over real HTTP: the last owner, owners only (through the server action),
// one-time invite links that expire and are replaced, an invite submitted twice made once, and the
// use case's own scoping and validation.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";
import { inviteUser, renewInvite } from "@/lib/accounts/invite-user";
import { acceptInvite } from "@/lib/accounts/accept-invite";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { PASSWORD, rand, userOf, attempt, actionId, callAction, eventTypes, ctxOf, refusedWith } from "./dashboard-accounts-fixtures.ts";

after(() => db().$disconnect());

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
