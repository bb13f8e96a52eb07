// Dashboard users: created by the operator (CLI), signed in with email + password (argon2id).
import { verify as argon2Verify } from "@node-rs/argon2";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { hashPassword } from "@/lib/platform/crypto/password";
import type { DashboardRole } from "@/lib/generated/prisma/enums";
import { ROLES } from "@/lib/platform/auth/policy";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/schema";

export { MIN_PASSWORD_LENGTH };

export async function createDashboardUser(input: { merchantId: string; email: string; password: string; role: DashboardRole }) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error("--email must be an email address");
  if (input.password.length < MIN_PASSWORD_LENGTH) throw new Error(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (!ROLES.includes(input.role)) throw new Error("--role must be owner, developer or viewer");
  const merchant = await db().merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw new Error(`no merchant ${input.merchantId}`);
  if (await db().dashboardUser.findUnique({ where: { email }, select: { id: true } })) throw new Error(`a dashboard user ${email} already exists`);
  const user = await db().dashboardUser.create({
    data: { id: newId("dashboardUser"), merchantId: merchant.id, email, passwordHash: await hashPassword(input.password), role: input.role },
  });
  return { id: user.id, merchantId: user.merchantId, email: user.email, role: user.role };
}

// Verifying against this when the email is unknown keeps the answer time the same as for a
// wrong password (no user enumeration by timing).
let dummyHash: Promise<string> | undefined;

/** The user when email and password match an active merchant's user; null otherwise. */
export async function verifyCredentials(emailRaw: string, password: string) {
  const email = emailRaw.trim().toLowerCase();
  const user = await db().dashboardUser.findUnique({ where: { email }, include: { merchant: { select: { status: true } } } });
  if (!user) {
    dummyHash ??= hashPassword("not-a-real-password-000");
    await argon2Verify(await dummyHash, password).catch(() => false);
    return null;
  }
  const ok = await argon2Verify(user.passwordHash, password).catch(() => false);
  if (!ok || user.merchant.status !== "active") return null;
  return { id: user.id, email: user.email, merchantId: user.merchantId, role: user.role, sessionVersion: user.sessionVersion };
}
