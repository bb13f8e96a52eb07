// An owner adds a dashboard user. There is no email service, so the invite is a temporary
// password shown once to the owner, who hands it over; it is stored only as an argon2id hash.
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newId, randomBase62 } from "@/lib/ids";
import { hashPassword } from "@/lib/merchants/create-merchant";
import { isUniqueViolation } from "@/lib/accounts/unique-violation";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { AuthContext } from "@/lib/auth/authenticate";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export async function inviteUser(ctx: AuthContext & { ip?: string }, input: { email: string; role: DashboardRole }) {
  const email = input.email.trim().toLowerCase();
  if (await db().dashboardUser.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError("dashboard_user_exists", "A dashboard user with this email already exists.", { param: "email" });
  }
  const temporaryPassword = randomBase62(20);
  try {
    const user = await db().dashboardUser.create({
      data: { id: newId("dashboardUser"), merchantId: ctx.merchant.id, email, role: input.role, passwordHash: await hashPassword(temporaryPassword) },
      select: { id: true, email: true, role: true },
    });
    await recordSecurityEvent({ merchantId: ctx.merchant.id, type: "team.invited", ...actorOf(ctx), details: { email, role: input.role } });
    return { ...user, temporaryPassword };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("dashboard_user_exists", "A dashboard user with this email already exists.", { param: "email" });
    throw err;
  }
}
