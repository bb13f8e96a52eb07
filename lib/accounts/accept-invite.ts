// The invitee's side of an invite link: the token (hashed) names a pending, unexpired invite; the
// invitee sets their own password, and the link is spent in the same conditional update (two
// tabs submitting at once: one wins, the other finds the link used).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { hashPassword } from "@/lib/platform/crypto/password";
import { inviteTokenHash } from "@/lib/accounts/invite-user";
import { recordSecurityEvent } from "@/lib/accounts/record-security-event";

const INVALID = "This invite link is not valid any more: it was used already, it expired, or a newer link replaced it. Ask an owner of the team for a new one.";

/** The pending invite a token names (for the page), or null. */
export async function findInvite(token: string, now = new Date()) {
  if (!/^[0-9A-Za-z]{20,64}$/.test(token)) return null;
  const user = await db().dashboardUser.findUnique({ where: { inviteTokenHash: inviteTokenHash(token) }, select: { email: true, role: true, inviteExpiresAt: true, merchant: { select: { name: true, status: true } } } });
  if (!user || !user.inviteExpiresAt || user.inviteExpiresAt <= now || user.merchant.status !== "active") return null;
  return { email: user.email, role: user.role, merchantName: user.merchant.name, expiresAt: user.inviteExpiresAt.toISOString() };
}

export async function acceptInvite(token: string, password: string, ip?: string): Promise<{ email: string }> {
  const invite = await findInvite(token);
  if (!invite) throw new AppError("invalid_request", INVALID, { param: "token" });
  const passwordHash = await hashPassword(password);
  const hash = inviteTokenHash(token);
  const spent = await db().dashboardUser.updateMany({
    where: { inviteTokenHash: hash, inviteExpiresAt: { gt: new Date() } },
    data: { passwordHash, inviteTokenHash: null, inviteExpiresAt: null, sessionVersion: { increment: 1 } },
  });
  if (spent.count !== 1) throw new AppError("invalid_request", INVALID, { param: "token" });
  const user = await db().dashboardUser.findUniqueOrThrow({ where: { email: invite.email }, select: { merchantId: true, email: true } });
  await recordSecurityEvent({ merchantId: user.merchantId, type: "team.invite_accepted", actor: user.email, ip: ip ?? null });
  return { email: user.email };
}
