// Operator reset of a dashboard user's password (CLI `user:password`): a new random password,
// shown once to the operator, stored only as its argon2id hash. Every open session of the user ends.
import { db } from "@/lib/platform/db";
import { randomBase62 } from "@/lib/platform/ids";
import { hashPassword } from "@/lib/platform/crypto/password";

/** A random password for a dashboard user (about 119 bits). */
export function randomPassword(): string {
  return randomBase62(20);
}

export async function resetDashboardPassword(emailRaw: string, password: string = randomPassword()): Promise<{ email: string; password: string }> {
  const email = emailRaw.trim().toLowerCase();
  const user = await db().dashboardUser.findUnique({ where: { email }, select: { id: true } });
  if (!user) throw new Error(`no dashboard user ${email}`);
  await db().dashboardUser.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } } });
  return { email, password };
}
