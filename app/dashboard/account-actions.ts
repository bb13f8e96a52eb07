"use server";
// Dashboard account actions: two-factor enrollment (the signed-in user's own), and the team
// (owners only). Same pattern as actions.ts: re-read the session, check the role table, call the
// lib/ use case with the signed-in merchant's context.
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/validation";
import { currentDashboard, dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { codeBody, inviteBody, roleBody } from "@/lib/accounts/schema";
import { actorOf } from "@/lib/accounts/record-security-event";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { inviteUser } from "@/lib/accounts/invite-user";
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
    return confirmTotpEnrollment(d.user.id, code, actorOf(d.ctx));
  });
}

export async function disableTotpAction(input: { code: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow();
    const { code } = parseWith(codeBody, input, "body");
    return disableTotp(d.user.id, code, actorOf(d.ctx));
  });
}

export async function inviteUserAction(input: { email: string; role: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    return inviteUser(d.ctx, parseWith(inviteBody, input, "body"));
  });
}

export async function changeRoleAction(userId: string, role: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    const body = parseWith(roleBody, { role }, "body");
    return changeRole(d.ctx, String(userId), body.role);
  });
}

export async function removeUserAction(userId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageTeam");
    return removeUser(d.ctx, String(userId));
  });
}
