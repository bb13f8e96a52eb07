// A signed-in user changes their own password: the current one first (a wrong one counts against
// the sign-in throttle, so a stolen session cannot guess it), then the new one. Every other
// session of the user ends (the version is bumped); the caller lets its own continue.
import { verify as argon2Verify } from "@node-rs/argon2";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { hashPassword } from "@/lib/platform/crypto/password";
import { attemptSignIn, refundSignIn } from "@/lib/accounts/throttle";
import { recordSecurityEvent, type SecurityActor } from "@/lib/accounts/record-security-event";

export async function changePassword(userId: string, input: { currentPassword: string; newPassword: string }, actor: SecurityActor): Promise<{ changed: true; sessionVersion: number }> {
  const user = await db().dashboardUser.findUnique({ where: { id: userId }, select: { id: true, email: true, merchantId: true, passwordHash: true } });
  if (!user) throw new AppError("dashboard_user_not_found", "No such dashboard user.");
  const ip = actor.ip ?? "unknown";
  if (await attemptSignIn(user.email, ip)) throw new AppError("rate_limited", "Too many wrong passwords. Wait 15 minutes and try again.");
  if (!(await argon2Verify(user.passwordHash, input.currentPassword).catch(() => false))) {
    throw new AppError("invalid_request", "That is not your current password.", { param: "currentPassword" });
  }
  await refundSignIn(user.email, ip);
  if (input.newPassword === input.currentPassword) throw new AppError("invalid_request", "The new password must differ from the current one.", { param: "newPassword" });
  // Only if the password is still the one just checked: two changes at once cannot both win.
  const changed = await db().dashboardUser.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash: await hashPassword(input.newPassword), sessionVersion: { increment: 1 } } });
  if (changed.count !== 1) throw new AppError("invalid_request", "Your password changed meanwhile. Sign in again.", { param: "currentPassword" });
  const { sessionVersion } = await db().dashboardUser.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });
  await recordSecurityEvent({ merchantId: user.merchantId, type: "password.changed", ...actor });
  return { changed: true, sessionVersion };
}
