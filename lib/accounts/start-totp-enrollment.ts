// Step one of enrolling in two-factor sign-in: a secret for the authenticator app, kept sealed
// and pending (not in force) until a code from the app confirms it. Showing the page again shows
// the same pending secret, so a reload does not break an app that has already scanned it.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { open, seal } from "@/lib/platform/crypto/secret-box";
import { newTotpSecret, totpOf } from "@/lib/accounts/totp";

export type TotpEnrollment = { enabled: true } | { enabled: false; secret: string; uri: string };

export async function startTotpEnrollment(userId: string): Promise<TotpEnrollment> {
  const user = await db().dashboardUser.findUnique({ where: { id: userId }, select: { email: true, totpSecret: true, totpEnabledAt: true } });
  if (!user) throw new AppError("dashboard_user_not_found", "No such dashboard user.");
  if (user.totpEnabledAt) return { enabled: true };
  let secret = user.totpSecret ? open(user.totpSecret) : null;
  if (!secret) {
    secret = newTotpSecret();
    // Only set when still empty: two tabs opening the page at once end up with one secret.
    const set = await db().dashboardUser.updateMany({ where: { id: userId, totpSecret: null, totpEnabledAt: null }, data: { totpSecret: seal(secret), totpLastStep: null } });
    if (set.count === 0) return startTotpEnrollment(userId);
  }
  return { enabled: false, secret, uri: totpOf(secret, user.email).toString() };
}
