// Idempotent replays of topups endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentTopup } from "@/lib/topups/topups";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /me/payout/topups/{id}/simulate. */
export async function replayTopupSimulation(auth: Ctx, ref: ResourceRef) {
  const t = await db().topup.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { topup: presentTopup(t ?? boundResourceGone(ref)) };
}
