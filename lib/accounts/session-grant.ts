// What a dashboard session carries beyond the user id: the user's session version it was signed
// in under (a bump ends it) and whether its second factor was given at sign-in (money rights in
// production need it; enrolling elsewhere never adds it to a password-only session).
//
// The session is a signed cookie (Auth.js JWT). A use case that bumps the version lets the
// session that made the change continue by issuing a grant: a short-lived statement signed with
// a key derived from AUTH_SECRET, which the session's update callback (auth.ts) accepts only for
// the same user. Anything else a client sends to the session's update endpoint is ignored.
import { createHmac } from "node:crypto";
import { config } from "@/lib/platform/config";
import { safeEqual } from "@/lib/platform/crypto/hash";

export type SessionState = { version: number; secondFactor: boolean };

const GRANT_TTL_MS = 60_000;

const mac = (body: string) => createHmac("sha256", config().AUTH_SECRET).update(`dashboard-session-grant:${body}`).digest("base64url");

/** A grant letting `userId`'s current session continue as `state`. */
export function signSessionGrant(userId: string, state: SessionState, now = Date.now()): string {
  const body = `${userId}.${state.version}.${state.secondFactor ? 1 : 0}.${now + GRANT_TTL_MS}`;
  return `${body}.${mac(body)}`;
}

/** The state a grant sets for `userId`'s session, or null (forged, expired, another user's). */
export function readSessionGrant(grant: unknown, userId: unknown, now = Date.now()): SessionState | null {
  if (typeof grant !== "string" || typeof userId !== "string") return null;
  const parts = grant.split(".");
  if (parts.length !== 5) return null;
  const [uid, version, secondFactor, expires, signature] = parts as [string, string, string, string, string];
  if (!safeEqual(mac(parts.slice(0, 4).join(".")), signature)) return null;
  if (uid !== userId || !(Number(expires) > now) || !/^\d+$/.test(version)) return null;
  return { version: Number(version), secondFactor: secondFactor === "1" };
}
