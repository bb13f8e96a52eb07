// Step two of enrolling: a code from the app proves it holds the secret; then two-factor sign-in
// is in force and ten recovery codes are issued (shown once; only their hashes are kept). The
// user's session version is bumped: every other session ends (a password-only session never
// gains what a second factor gives); the caller lets its own session continue under the new one.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { open } from "@/lib/platform/crypto/secret-box";
import { newRecoveryCodes, recoveryCodeRows, totpStep } from "@/lib/accounts/totp";
import { recordSecurityEvent, type SecurityActor } from "@/lib/accounts/record-security-event";

export async function confirmTotpEnrollment(userId: string, code: string, actor: SecurityActor, now = Date.now()): Promise<{ recoveryCodes: string[]; sessionVersion: number }> {
  const user = await db().dashboardUser.findUnique({ where: { id: userId }, select: { merchantId: true, totpSecret: true, totpEnabledAt: true } });
  if (!user) throw new AppError("dashboard_user_not_found", "No such dashboard user.");
  if (user.totpEnabledAt) throw new AppError("invalid_request", "Two-factor sign-in is already on.");
  if (!user.totpSecret) throw new AppError("invalid_request", "Start the set-up again: no pending secret.");
  const step = totpStep(open(user.totpSecret), code.trim(), now);
  if (step === null) throw new AppError("two_factor_invalid", "That code is not valid. Enter the current 6-digit code from your app.", { param: "code" });
  const recoveryCodes = newRecoveryCodes();
  const sessionVersion = await db().$transaction(async (tx) => {
    const on = await tx.dashboardUser.updateMany({ where: { id: userId, totpEnabledAt: null, totpSecret: user.totpSecret }, data: { totpEnabledAt: new Date(now), totpLastStep: step, sessionVersion: { increment: 1 } } });
    if (on.count === 0) throw new AppError("invalid_request", "Two-factor sign-in changed meanwhile. Reload the page.");
    await tx.dashboardRecoveryCode.deleteMany({ where: { userId } });
    await tx.dashboardRecoveryCode.createMany({ data: recoveryCodeRows(userId, recoveryCodes) });
    return (await tx.dashboardUser.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } })).sessionVersion;
  });
  await recordSecurityEvent({ merchantId: user.merchantId, type: "two_factor.enabled", ...actor });
  return { recoveryCodes, sessionVersion };
}
