// A merchant's accept (POST /claims/{id}/accept: the chargeback or MED claim is conceded, lost at
// once) and the sandbox decision (POST /claims/{id}/simulate: won needs evidence submitted before
// dueBy). Both go through the kernel's resolveDispute, scoped to the caller's claims.
import { AppError } from "@/lib/platform/errors";
import { bindIdempotency, bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { resolveDispute } from "@/lib/claims/resolve-dispute";
import { findOwnedClaim, resolveScope } from "@/lib/claims/find-claim";
import { getClaim } from "@/lib/claims/get-claim";
import type { Owner, OwnerWith } from "@/lib/platform/scope";
import type { Tx } from "@/lib/platform/db";

async function disputeOf(auth: Owner, id: string) {
  const c = await findOwnedClaim(auth, id);
  if (c.kind === "user_dispute") throw new AppError("invalid_request", "Only a chargeback or a MED claim can be accepted or decided; this claim is a refund.", { param: "id" });
  return c;
}

export async function acceptChargeback(auth: OwnerWith<"merchant" | "shop">, id: string) {
  const c = await disputeOf(auth, id);
  const opts = { scope: resolveScope(auth), before: (tx: Tx) => bindIdempotency(tx, { resource: "claim", id: c.id }) };
  await resolveDispute(c.id, "lost", opts);
  return getClaim(auth, c.id);
}

export async function simulateChargebackOutcome(auth: OwnerWith<"merchant" | "shop">, id: string, action: "won" | "lost") {
  const c = await disputeOf(auth, id);
  bindOnNextTransition({ resource: "claim", id: c.id });
  await resolveDispute(c.id, action, { scope: resolveScope(auth), requireEvidence: true });
  return getClaim(auth, c.id);
}
