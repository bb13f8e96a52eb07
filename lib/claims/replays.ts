// Idempotent replays of claims endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentRefund } from "@/lib/claims/present";
import { getClaim } from "@/lib/claims/get-claim";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /payments/{id}/refund. */
export async function replayRefund(auth: Ctx, ref: ResourceRef) {
  const row = await db().claim.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return presentRefund(row ?? boundResourceGone(ref));
}

/** POST /claims/{id}/simulate. */
export const replayClaimSimulation = (auth: Pick<AuthContext, "merchant" | "environment" | "shop">, ref: ResourceRef) => getClaim(auth, ref.id);
