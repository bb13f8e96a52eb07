// TOTP (RFC 6238) codes and single-use recovery codes of the dashboard's two-factor sign-in.
// The TOTP secret is sealed at rest (lib/platform/crypto/secret-box); recovery codes are stored as SHA-256
// hashes. A TOTP code is accepted once: the accepted time step is stored and a code of that step
// or an earlier one is refused, so a code seen over a shoulder or in a log cannot be replayed
// within its window.
import { randomBytes } from "node:crypto";
import * as OTPAuth from "otpauth";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { open } from "@/lib/platform/crypto/secret-box";

export const TOTP_ISSUER = "Latam Payments";
const PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function totpOf(secretBase32: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: TOTP_ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_S, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

export const looksLikeTotp = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ""));

/**
 * The time step `code` belongs to (one step of clock drift either way), or null when it is not a
 * current code of `secretBase32`.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secretBase32, "x").validate({ token: code.replace(/\s/g, ""), timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** Accepts a current, unused TOTP code of the user's sealed secret and marks its step used. */
export async function consumeTotp(user: { id: string; totpSecret: string | null }, code: string, now = Date.now()): Promise<boolean> {
  if (!user.totpSecret || !looksLikeTotp(code)) return false;
  const step = totpStep(open(user.totpSecret), code, now);
  if (step === null) return false;
  // One conditional update: two requests racing with the same code cannot both win.
  const won = await db().dashboardUser.updateMany({ where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] }, data: { totpLastStep: step } });
  return won.count === 1;
}

const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[^0-9a-z]/g, "");

/** Ten fresh codes like "3f9a1-c07be" (50 random bits each); only their hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(5).toString("hex");
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}

export function recoveryCodeRows(userId: string, codes: string[]) {
  return codes.map((c) => ({ id: newId("recoveryCode"), userId, codeHash: sha256Hex(`recovery:${normalizeRecovery(c)}`) }));
}

/** Spends one unused recovery code of the user; false when it is unknown or already spent. */
export async function consumeRecoveryCode(userId: string, code: string): Promise<boolean> {
  const n = normalizeRecovery(code);
  if (n.length !== 10) return false;
  const spent = await db().dashboardRecoveryCode.updateMany({ where: { userId, codeHash: sha256Hex(`recovery:${n}`), usedAt: null }, data: { usedAt: new Date() } });
  return spent.count === 1;
}
