"use server";
// The team (owners only: manageTeam) and accepting an invite (no session: the link's token is
// the credential).
import { parseWith } from "@/lib/platform/contract/validation";
import { headers } from "next/headers";
import { continueSession, dashboardOrThrow } from "@/server/dashboard";
import { clientIp } from "@/lib/platform/http/client-ip";
import { onceForForm } from "@/lib/dashboard/once";
import { runAction } from "@/lib/dashboard/action-result";
import { acceptInviteBody, inviteBody, roleBody } from "@/lib/accounts/schema";
import { inviteUser, renewInvite } from "@/lib/accounts/invite-user";
import { acceptInvite } from "@/lib/accounts/accept-invite";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";

/** Once per form (a double click or a retry invites once); the answer holds the link, so it is never stored. */
export async function inviteUserAction(input: { email: string; role: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    const body = parseWith(inviteBody, input, "body");
    return onceForForm(d, "team-invite", formKey, body, () => inviteUser(d.ctx, body), (ref) => renewInvite(d.ctx, ref.id), { storeAnswer: false });
  });
}

/** A new link for a pending invite (the previous one stops working). */
export async function renewInviteAction(userId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    return renewInvite(d.ctx, String(userId));
  });
}

export async function changeRoleAction(userId: string, role: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    const body = parseWith(roleBody, { role }, "body");
    const { sessionVersion, ...user } = await changeRole(d.ctx, String(userId), body.role);
    // An owner changing their own role keeps this session (with the new role); the others end.
    if (user.id === d.user.id && sessionVersion !== null) await continueSession(d, { ...d.session, version: sessionVersion });
    return user;
  });
}

export async function removeUserAction(userId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    return removeUser(d.ctx, String(userId));
  });
}

/** The invitee sets their password through the link; no session (the token is the credential). */
export async function acceptInviteAction(token: string, input: { password: string }) {
  return runAction(async () => {
    const { password } = parseWith(acceptInviteBody, input, "body");
    return acceptInvite(String(token), password, clientIp(await headers()) ?? undefined);
  });
}
