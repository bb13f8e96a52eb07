"use server";
// The signed-in user's own account: two-factor enrollment and the password. A use case that bumps
// the user's session version (every other session ends) is followed by continueSession, so the
// session that made the change goes on.
import { continueSession } from "@/server/dashboard";
import { dashboardAction } from "@/server/dashboard-action";
import { changePasswordBody, codeBody } from "@/lib/accounts/schema";
import { actorOf } from "@/lib/accounts/record-security-event";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { disableTotp } from "@/lib/accounts/disable-totp";
import { changePassword } from "@/lib/accounts/change-password";

/** Enrollment is the one thing a user who must enroll can do, so it takes any signed-in user. */
export const confirmTotpAction = dashboardAction("signedIn", { args: (form: { code: string }) => ({ input: form }), input: codeBody }, async ({ d, input }) => {
  const { recoveryCodes, sessionVersion } = await confirmTotpEnrollment(d.user.id, input.code, actorOf(d.ctx));
  // This session just gave the second factor: it goes on with it; every other one has ended.
  await continueSession(d, { version: sessionVersion, secondFactor: true });
  return { recoveryCodes };
});

export const disableTotpAction = dashboardAction("read", { args: (form: { code: string }) => ({ input: form }), input: codeBody }, async ({ d, input }) => {
  const { sessionVersion } = await disableTotp(d.user.id, input.code, actorOf(d.ctx));
  if (sessionVersion !== undefined) await continueSession(d, { ...d.session, version: sessionVersion });
  return { enabled: false as const };
});

// Any signed-in user, even one held at two-factor enrolment: the password is theirs.
export const changePasswordAction = dashboardAction(
  "signedIn",
  { args: (form: { currentPassword: string; newPassword: string }) => ({ input: form }), input: changePasswordBody },
  async ({ d, input }) => {
    const { sessionVersion } = await changePassword(d.user.id, input, actorOf(d.ctx));
    await continueSession(d, { ...d.session, version: sessionVersion });
    return { changed: true as const };
  },
);
