// Idempotent replays of settlements endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentSettlement } from "@/lib/settlements/present";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /settlements/{id}/simulate. */
export async function replaySettlementSimulation(auth: Ctx, ref: ResourceRef) {
  const s = await db().settlement.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { settlement: presentSettlement(s ?? boundResourceGone(ref)) };
}
