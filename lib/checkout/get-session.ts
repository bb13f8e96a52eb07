// Reading a session by its token. Expired sessions (24 h) read as absent whatever the expiry
// job has done so far: the TTL is enforced at lookup, the job only tidies.
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { presentSession } from "@/lib/checkout/present";
import { SESSION_TOKEN } from "@/lib/checkout/schema";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

export function isExpired(s: Pick<CheckoutSession, "status" | "expiresAt">, now = new Date()): boolean {
  return s.status === "expired" || s.expiresAt.getTime() <= now.getTime();
}

/** The row, expired or not; null for a token that is malformed or unknown. */
export async function findSession(token: string): Promise<CheckoutSession | null> {
  if (!SESSION_TOKEN.test(token)) return null;
  return db().checkoutSession.findUnique({ where: { id: token } });
}

export function sessionNotFound(): AppError {
  return new AppError("checkout_session_not_found", "No checkout session with this token, or it has expired (sessions last 24 hours). Create a new one.");
}

export async function getCheckoutSession(token: string) {
  const s = await findSession(token);
  if (!s || isExpired(s)) throw sessionNotFound();
  return presentSession(s);
}
