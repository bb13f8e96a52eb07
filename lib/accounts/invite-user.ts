// An owner adds a dashboard user. There is no email service, so the invite is a one-time link the
// owner hands over: it carries a random token (stored only as its SHA-256), expires after
// INVITE_TTL_MS and works once; the invitee sets their own password there (accept-invite.ts).
// Until then the user has a random password nobody knows. No password is ever shown on screen.
//
// From the dashboard the invite runs once per form submission (lib/dashboard/once.ts): the user
// row binds the form's key in its transaction, and a replay (a double click, a retry after a lost
// answer) never creates a second user or answers "already exists": it hands out a fresh link
// for the same invite (the answer holds the link, so it is never stored).
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { newId, randomBase62 } from "@/lib/platform/ids";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { hashPassword } from "@/lib/platform/crypto/password";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { isUniqueViolation } from "@/lib/accounts/unique-violation";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export const inviteTokenHash = (token: string) => sha256Hex(`invite:${token}`);

/** A fresh token and where it is kept: the link holds the token, the row only its hash. */
function newInvite(now = Date.now()) {
  const token = randomBase62(32);
  return { token, hash: inviteTokenHash(token), expiresAt: new Date(now + INVITE_TTL_MS), url: `${config().APP_URL}/dashboard/invite/${token}` };
}

export type Invite = { id: string; email: string; role: DashboardRole; inviteUrl: string | null; inviteExpiresAt: string | null };

export async function inviteUser(ctx: AuthContext & { ip?: string }, input: { email: string; role: DashboardRole }): Promise<Invite> {
  const email = input.email.trim().toLowerCase();
  if (await db().dashboardUser.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError("dashboard_user_exists", "A dashboard user with this email already exists.", { param: "email" });
  }
  const invite = newInvite();
  const unusable = await hashPassword(randomBase62(32));
  try {
    const user = await db().$transaction(async (tx) => {
      const created = await tx.dashboardUser.create({
        data: { id: newId("dashboardUser"), merchantId: ctx.merchant.id, email, role: input.role, passwordHash: unusable, inviteTokenHash: invite.hash, inviteExpiresAt: invite.expiresAt },
        select: { id: true, email: true, role: true },
      });
      await bindIdempotency(tx, { resource: "dashboardUser", id: created.id });
      return created;
    });
    await recordSecurityEvent({ merchantId: ctx.merchant.id, type: "team.invited", ...actorOf(ctx), details: { email, role: input.role } });
    return { ...user, inviteUrl: invite.url, inviteExpiresAt: invite.expiresAt.toISOString() };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("dashboard_user_exists", "A dashboard user with this email already exists.", { param: "email" });
    throw err;
  }
}

/**
 * A new link for a member's pending invite (the previous link stops working). For the replay of
 * an invite and for an owner who lost the link. A member who has accepted gets no link.
 */
export async function renewInvite(ctx: Pick<AuthContext, "merchant">, userId: string): Promise<Invite> {
  const user = await db().dashboardUser.findFirst({ where: { id: userId, merchantId: ctx.merchant.id }, select: { id: true, email: true, role: true, inviteTokenHash: true } });
  if (!user) throw new AppError("dashboard_user_not_found", `No team member ${userId}.`, { param: "userId" });
  const base = { id: user.id, email: user.email, role: user.role };
  if (!user.inviteTokenHash) return { ...base, inviteUrl: null, inviteExpiresAt: null };
  const invite = newInvite();
  const renewed = await db().dashboardUser.updateMany({ where: { id: user.id, inviteTokenHash: { not: null } }, data: { inviteTokenHash: invite.hash, inviteExpiresAt: invite.expiresAt } });
  if (renewed.count === 0) return { ...base, inviteUrl: null, inviteExpiresAt: null };
  return { ...base, inviteUrl: invite.url, inviteExpiresAt: invite.expiresAt.toISOString() };
}
