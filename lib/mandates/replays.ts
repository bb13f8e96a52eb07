// Idempotent replays of the mandate endpoints (lib/platform/idempotency/replay.ts): each re-renders
// the endpoint's success answer from the resource its use case bound, as that row is now.
import { db } from "@/lib/platform/db";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope, type Owner } from "@/lib/platform/scope";
import { presentCharge, presentMandate } from "@/lib/mandates/present";

/** POST /mandates and POST /mandates/{id}/simulate. */
export async function replayMandate(auth: Owner, ref: ResourceRef) {
  const m = await db().mandate.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { mandate: presentMandate(m ?? boundResourceGone(ref)) };
}

/** POST /mandates/{id}/charges. */
export async function replayMandateCharge(auth: Owner, ref: ResourceRef) {
  const c = await db().mandateCharge.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { charge: presentCharge(c ?? boundResourceGone(ref)) };
}
