// A merchant's accept (POST /claims/{id}/accept: the chargeback is conceded, lost at once) and
// the sandbox decision (POST /claims/{id}/simulate: won needs evidence submitted before dueBy).
// Both go through the kernel's resolveChargeback, scoped to the caller's claims.
import { AppError } from "@/lib/platform/errors";
import { bindIdempotency, bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { resolveChargeback } from "@/lib/claims/transitions";
import { findOwnedClaim, resolveScope } from "@/lib/claims/find-claim";
import { getClaim } from "@/lib/claims/get-claim";
import type { Owner, OwnerWith } from "@/lib/platform/scope";

async function chargebackOf(auth: Owner, id: string) {
  const c = await findOwnedClaim(auth, id);
  if (c.kind !== "chargeback") throw new AppError("invalid_request", "Only a chargeback can be accepted or decided; this claim is a refund.", { param: "id" });
  return c;
}

export async function acceptChargeback(auth: OwnerWith<"merchant" | "shop">, id: string) {
  const c = await chargebackOf(auth, id);
  await resolveChargeback(c.id, "lost", { scope: resolveScope(auth), before: (tx) => bindIdempotency(tx, { resource: "claim", id: c.id }) });
  return getClaim(auth, c.id);
}

export async function simulateChargebackOutcome(auth: OwnerWith<"merchant" | "shop">, id: string, action: "won" | "lost") {
  const c = await chargebackOf(auth, id);
  bindOnNextTransition({ resource: "claim", id: c.id });
  await resolveChargeback(c.id, action, { scope: resolveScope(auth), requireEvidence: true });
  return getClaim(auth, c.id);
}
