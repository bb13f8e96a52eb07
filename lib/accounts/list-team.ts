// The merchant's dashboard users, for the Team page.
import { db } from "@/lib/db";
import type { AuthContext } from "@/lib/auth/authenticate";

export async function listTeam(ctx: Pick<AuthContext, "merchant">) {
  const users = await db().dashboardUser.findMany({
    where: { merchantId: ctx.merchant.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, email: true, role: true, totpEnabledAt: true, createdAt: true },
  });
  return users.map((u) => ({ id: u.id, email: u.email, role: u.role, twoFactor: u.totpEnabledAt !== null, createdAt: u.createdAt.toISOString() }));
}
