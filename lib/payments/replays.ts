// Idempotent replays of payments endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentCreated } from "@/lib/payments/present";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

export async function createdPayment(auth: Ctx, ref: ResourceRef) {
  const row = await db().transaction.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return presentCreated(row ?? boundResourceGone(ref));
}

/** POST /payments and /transactions. */
export const replayPayment = (auth: Ctx, ref: ResourceRef) => createdPayment(auth, ref);
