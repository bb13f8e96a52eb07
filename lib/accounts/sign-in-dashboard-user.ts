// A dashboard sign-in attempt: throttle, password, then (when the user has it on) the second
// factor, a TOTP code or a recovery code. Every attempt counts against the per-email and per-address
// throttle before anything is checked; only a right password gives its place back. Outcomes for known users go to their merchant's security log.
import { db } from "@/lib/platform/db";
import { verifyCredentials } from "@/lib/accounts/users";
import { attemptSignIn, recordSuccess, refundSignIn } from "@/lib/accounts/throttle";
import { consumeRecoveryCode, consumeTotp, looksLikeTotp } from "@/lib/accounts/totp";
import { recordSecurityEvent } from "@/lib/accounts/record-security-event";

export type SignInResult =
  | { ok: true; user: { id: string; email: string }; sessionVersion: number; secondFactor: boolean }
  | { ok: false; reason: "invalid" | "throttled" | "code_required" | "code_invalid" };

export async function signInDashboardUser(input: { email: string; password: string; code?: string; ip: string }): Promise<SignInResult> {
  const { email, password, ip } = input;
  const code = input.code?.trim() ?? "";
  // Counted before anything is checked (lib/accounts/throttle.ts): a burst cannot outrun it.
  if (await attemptSignIn(email, ip)) return { ok: false, reason: "throttled" };
  const user = await verifyCredentials(email, password);
  if (!user) {
    const known = await db().dashboardUser.findUnique({ where: { email: email.trim().toLowerCase() }, select: { merchantId: true, email: true } });
    if (known) await recordSecurityEvent({ merchantId: known.merchantId, type: "sign_in.failed", actor: known.email, ip, details: { reason: "password" } });
    return { ok: false, reason: "invalid" };
  }
  const factor = await db().dashboardUser.findUnique({ where: { id: user.id }, select: { id: true, totpSecret: true, totpEnabledAt: true } });
  let twoFactor: "totp" | "recovery_code" | null = null;
  if (factor?.totpEnabledAt) {
    // The password was right; asking for the code is not a failure (a two-step form sends it next).
    if (!code) {
      await refundSignIn(email, ip);
      return { ok: false, reason: "code_required" };
    }
    const totp = looksLikeTotp(code);
    const ok = totp ? await consumeTotp(factor, code) : await consumeRecoveryCode(factor.id, code);
    if (!ok) {
      await recordSecurityEvent({ merchantId: user.merchantId, type: "sign_in.failed", actor: user.email, ip, details: { reason: totp ? "totp" : "recovery_code" } });
      return { ok: false, reason: "code_invalid" };
    }
    twoFactor = totp ? "totp" : "recovery_code";
    if (!totp) await recordSecurityEvent({ merchantId: user.merchantId, type: "recovery_code.used", actor: user.email, ip });
  }
  await recordSuccess(email, ip);
  await recordSecurityEvent({ merchantId: user.merchantId, type: "sign_in.succeeded", actor: user.email, ip, details: { twoFactor } });
  return { ok: true, user: { id: user.id, email: user.email }, sessionVersion: user.sessionVersion, secondFactor: twoFactor !== null };
}
