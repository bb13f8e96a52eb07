// Idempotent replays of qr endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentQrOrder } from "@/lib/qr/present";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /qr/orders/{id}/simulate. */
export async function replayQrOrderSimulation(auth: Ctx, ref: ResourceRef) {
  const o = await db().qrOrder.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { order: presentQrOrder(o ?? boundResourceGone(ref)) };
}
