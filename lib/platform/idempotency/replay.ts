// What a replay function shares: it re-renders the answer a use case gave from the resource the
// use case bound (bindIdempotency), when the stored answer was lost (a crash after commit). Each
// lives beside its domain (lib/<domain>/replays.ts) and a route names it in `replay`. The sandbox
// simulate endpoints bind the record they moved (bindOnNextTransition): a lost answer replays that
// record as it is now, in the endpoint's answer shape.
import { AppError } from "@/lib/platform/errors";
import type { ResourceRef } from "@/lib/platform/idempotency/keys";

export type { ResourceRef };

/** A bound resource is never deleted; reaching this means the data was removed by hand. */
export function boundResourceGone(ref: ResourceRef): never {
  throw new AppError("internal_error", `The ${ref.resource} ${ref.id} this Idempotency-Key created is gone.`);
}
