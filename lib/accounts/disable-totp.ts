// Turning two-factor sign-in off: needs a current code (or a recovery code), and is refused where
// the role must have it (production owners and roles that move money). Every other session of
// the user ends (its version is bumped).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { consumeRecoveryCode, consumeTotp, looksLikeTotp } from "@/lib/accounts/totp";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";
import { attemptSignIn, refundSignIn } from "@/lib/accounts/throttle";
import { recordSecurityEvent, type SecurityActor } from "@/lib/accounts/record-security-event";

export async function disableTotp(userId: string, code: string, actor: SecurityActor): Promise<{ enabled: false; sessionVersion?: number }> {
  const user = await db().dashboardUser.findUnique({ where: { id: userId }, select: { id: true, email: true, merchantId: true, role: true, totpSecret: true, totpEnabledAt: true } });
  if (!user) throw new AppError("dashboard_user_not_found", "No such dashboard user.");
  if (!user.totpEnabledAt) return { enabled: false };
  if (twoFactorRequired(user.role)) throw new AppError("two_factor_required", `Two-factor sign-in is required for the ${user.role} role.`);
  // A stolen session must not be able to guess its way out of two-factor: the sign-in throttle counts here too.
  const ip = actor.ip ?? "unknown";
  if (await attemptSignIn(user.email, ip)) throw new AppError("rate_limited", "Too many wrong codes. Wait 15 minutes and try again.");
  const ok = looksLikeTotp(code) ? await consumeTotp(user, code) : await consumeRecoveryCode(user.id, code);
  if (!ok) {
    throw new AppError("two_factor_invalid", "That code is not valid.", { param: "code" });
  }
  await refundSignIn(user.email, ip);
  const [off] = await db().$transaction([
    db().dashboardUser.update({ where: { id: user.id }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null, sessionVersion: { increment: 1 } }, select: { sessionVersion: true } }),
    db().dashboardRecoveryCode.deleteMany({ where: { userId: user.id } }),
  ]);
  await recordSecurityEvent({ merchantId: user.merchantId, type: "two_factor.disabled", ...actor });
  return { enabled: false, sessionVersion: off.sessionVersion };
}
