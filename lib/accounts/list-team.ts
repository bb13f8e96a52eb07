// The merchant's dashboard users, for the Team page.
import { db } from "@/lib/platform/db";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function listTeam(ctx: Pick<AuthContext, "merchant">) {
  const users = await db().dashboardUser.findMany({
    where: { merchantId: ctx.merchant.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, email: true, role: true, totpEnabledAt: true, inviteTokenHash: true, inviteExpiresAt: true, createdAt: true },
  });
  const now = new Date();
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    role: u.role,
    twoFactor: u.totpEnabledAt !== null,
    /** An invite link not yet used: still valid, or expired (a new link can be made). */
    invite: u.inviteTokenHash === null ? null : u.inviteExpiresAt && u.inviteExpiresAt > now ? ("pending" as const) : ("expired" as const),
    createdAt: u.createdAt.toISOString(),
  }));
}
