// Idempotent replays of deposits endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentAccount, presentDeposit } from "@/lib/deposits/present";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";
import { merchantScope } from "@/lib/platform/scope";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

type Ctx = Pick<AuthContext, "merchant" | "environment">;

/** POST /me/deposit-accounts (only a created account binds: 201). */
export async function replayDepositAccount(auth: Ctx, ref: ResourceRef) {
  const a = await db().depositAccount.findFirst({ where: { id: ref.id, ...merchantScope(auth) } });
  return { created: true, account: presentAccount(a ?? boundResourceGone(ref)) };
}

/** POST /me/deposit-accounts/{id}/simulate-deposit (bound by tracking key: 201). */
export async function replayDeposit(auth: Ctx, accountId: string, ref: ResourceRef) {
  const d = await db().deposit.findFirst({ where: { depositAccountId: accountId, trackingKey: ref.id, ...merchantScope(auth) } });
  return { created: true, deposit: presentDeposit(d ?? boundResourceGone(ref)) };
}
