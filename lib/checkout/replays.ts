// Idempotent replays of checkout endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentSession } from "@/lib/checkout/present";
import { presentOneShot } from "@/lib/checkout/create-session";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import { createdPayment } from "@/lib/payments/replays";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /checkout/sessions: a selector session, or the payment of a one-shot session. */
export async function replayCheckoutSession(auth: Ctx, ref: ResourceRef) {
  if (ref.resource === "payment") return presentOneShot(await createdPayment(auth, ref));
  const row = await db().checkoutSession.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return presentSession(row ?? boundResourceGone(ref));
}
