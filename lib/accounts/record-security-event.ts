// The merchant's security log: one row per thing that changes who can get in or what a key or a
// secret is worth. Written by the use cases that do those things, after their change commits.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { log } from "@/lib/platform/log";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export const SECURITY_EVENT_TYPES = [
  "sign_in.succeeded",
  "sign_in.failed",
  "two_factor.enabled",
  "two_factor.disabled",
  "recovery_code.used",
  "api_key.rolled",
  "webhook_secret.revealed",
  "webhook_secret.rotated",
  "team.invited",
  "team.invite_accepted",
  "password.changed",
  "team.role_changed",
  "team.removed",
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** Who acted: a dashboard user's email, a masked API key id, or "operator" (CLI); and from where. */
export type SecurityActor = { actor: string; ip?: string | null };

/** The actor behind a use case's context (dashboard contexts carry the user's email and address). */
export function actorOf(ctx: Pick<AuthContext, "keyId" | "via"> & { ip?: string }): SecurityActor {
  return { actor: ctx.via === "dashboard" ? ctx.keyId.replace(/^dashboard:/, "") : ctx.keyId, ip: ctx.ip ?? null };
}

export async function recordSecurityEvent(input: { merchantId: string; type: SecurityEventType; details?: Record<string, string | number | boolean | null> } & SecurityActor): Promise<void> {
  try {
    await db().securityEvent.create({
      data: { id: newId("securityEvent"), merchantId: input.merchantId, type: input.type, actor: input.actor, ip: input.ip ?? null, ...(input.details ? { details: input.details } : {}) },
    });
  } catch (err) {
    // The change it records has committed already; a lost log row must not turn it into an error.
    log.error({ err: (err as Error).message, type: input.type, merchantId: input.merchantId }, "security event not recorded");
  }
}
