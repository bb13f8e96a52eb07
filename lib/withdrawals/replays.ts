// Idempotent replays of withdrawals endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /me/withdrawals/{id}/simulate. */
export async function replayWithdrawalSimulation(auth: Ctx, ref: ResourceRef) {
  const w = await db().withdrawal.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { withdrawal: presentWithdrawal(w ?? boundResourceGone(ref)) };
}
