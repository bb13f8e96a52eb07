"use server";
// Dashboard account actions: two-factor enrollment and the password (the signed-in user's own),
// the team (owners only), and accepting an invite (no session: the link's token is the
// credential). Same pattern as actions.ts: re-read the session, check the role table, call the
// lib/ use case with the signed-in merchant's context. A use case that bumps the signed-in
// user's session version (every other session ends) is followed by continueSession, so the
// session that made the change goes on.
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";
import { headers } from "next/headers";
import { continueSession, currentDashboard, dashboardOrThrow } from "@/server/dashboard";
import { clientIp } from "@/lib/http/client-ip";
import { onceForForm } from "@/lib/dashboard/once";
import { runAction } from "@/lib/dashboard/action-result";
import { acceptInviteBody, changePasswordBody, codeBody, inviteBody, roleBody } from "@/lib/accounts/schema";
import { actorOf } from "@/lib/accounts/record-security-event";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { inviteUser, renewInvite } from "@/lib/accounts/invite-user";
import { acceptInvite } from "@/lib/accounts/accept-invite";
import { changePassword } from "@/lib/accounts/change-password";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";

/**
 * Enrollment is the one thing a user who must enroll can do, so it takes any signed-in user
 * (dashboardOrThrow refuses them until they have).
 */
async function signedInOrThrow() {
  const d = await currentDashboard();
  if (!d) throw new AppError("missing_credentials", "Your session has ended. Sign in again.");
  return d;
}

export async function confirmTotpAction(input: { code: string }) {
  return runAction(async () => {
    const d = await signedInOrThrow();
    const { code } = parseWith(codeBody, input, "body");
    const { recoveryCodes, sessionVersion } = await confirmTotpEnrollment(d.user.id, code, actorOf(d.ctx));
    // This session just gave the second factor: it goes on with it; every other one has ended.
    await continueSession(d, { version: sessionVersion, secondFactor: true });
    return { recoveryCodes };
  });
}

export async function disableTotpAction(input: { code: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow();
    const { code } = parseWith(codeBody, input, "body");
    const { sessionVersion } = await disableTotp(d.user.id, code, actorOf(d.ctx));
    if (sessionVersion !== undefined) await continueSession(d, { ...d.session, version: sessionVersion });
    return { enabled: false as const };
  });
}

export async function changePasswordAction(input: { currentPassword: string; newPassword: string }) {
  return runAction(async () => {
    // Any signed-in user, even one held at two-factor enrolment: the password is theirs.
    const d = await signedInOrThrow();
    const body = parseWith(changePasswordBody, input, "body");
    const { sessionVersion } = await changePassword(d.user.id, body, actorOf(d.ctx));
    await continueSession(d, { ...d.session, version: sessionVersion });
    return { changed: true as const };
  });
}

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
