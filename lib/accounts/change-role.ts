// An owner changes a team member's role; the last owner cannot be demoted. The member's sessions
// end (their version is bumped): a session holds the rights it was signed in with, no others.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { lockedOwnerIds } from "@/lib/accounts/lock-owners";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export async function changeRole(ctx: AuthContext & { ip?: string }, userId: string, role: DashboardRole) {
  const result = await db().$transaction(async (tx) => {
    const owners = await lockedOwnerIds(tx, ctx.merchant.id);
    const user = await tx.dashboardUser.findFirst({ where: { id: userId, merchantId: ctx.merchant.id }, select: { id: true, email: true, role: true } });
    if (!user) throw new AppError("dashboard_user_not_found", `No team member ${userId}.`, { param: "userId" });
    if (user.role === role) return { user, from: role, sessionVersion: null };
    if (user.role === "owner" && owners.length <= 1) throw new AppError("last_owner", "The last owner cannot be demoted. Make someone else an owner first.", { param: "role" });
    const { sessionVersion, ...updated } = await tx.dashboardUser.update({ where: { id: user.id }, data: { role, sessionVersion: { increment: 1 } }, select: { id: true, email: true, role: true, sessionVersion: true } });
    return { user: updated, from: user.role, sessionVersion };
  });
  if (result.from !== role) {
    await recordSecurityEvent({ merchantId: ctx.merchant.id, type: "team.role_changed", ...actorOf(ctx), details: { email: result.user.email, from: result.from, to: role } });
  }
  return { ...result.user, sessionVersion: result.sessionVersion };
}
