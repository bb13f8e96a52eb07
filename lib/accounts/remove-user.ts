// An owner removes a team member. Sessions reload the user on every request, so the removed
// user's open sessions end at once (there is no user, hence no version, left to match; a user
// invited again under the same email is a new user). The last owner cannot be removed.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { lockedOwnerIds } from "@/lib/accounts/lock-owners";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function removeUser(ctx: AuthContext & { ip?: string }, userId: string) {
  const removed = await db().$transaction(async (tx) => {
    const owners = await lockedOwnerIds(tx, ctx.merchant.id);
    const user = await tx.dashboardUser.findFirst({ where: { id: userId, merchantId: ctx.merchant.id }, select: { id: true, email: true, role: true } });
    if (!user) throw new AppError("dashboard_user_not_found", `No team member ${userId}.`, { param: "userId" });
    if (user.role === "owner" && owners.length <= 1) throw new AppError("last_owner", "The last owner cannot be removed. Make someone else an owner first.", { param: "userId" });
    await tx.dashboardUser.delete({ where: { id: user.id } });
    return user;
  });
  await recordSecurityEvent({ merchantId: ctx.merchant.id, type: "team.removed", ...actorOf(ctx), details: { email: removed.email, role: removed.role } });
  return { id: removed.id, removed: true as const };
}
