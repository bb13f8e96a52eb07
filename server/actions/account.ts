"use server";
// The signed-in user's own account: two-factor enrollment and the password. A use case that bumps
// the user's session version (every other session ends) is followed by continueSession, so the
// session that made the change goes on.
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { continueSession, currentDashboard, dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { changePasswordBody, codeBody } from "@/lib/accounts/schema";
import { actorOf } from "@/lib/accounts/record-security-event";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { changePassword } from "@/lib/accounts/change-password";

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
