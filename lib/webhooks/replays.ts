// Idempotent replays of webhooks endpoints (lib/platform/idempotency/replay.ts): each re-renders the
// endpoint's success answer from the resource its use case bound, as that row is now; nothing here writes.
import { db } from "@/lib/platform/db";
import { presentSubscription, signingSecrets, subscriptionScope } from "@/lib/webhooks/subscriptions";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { boundResourceGone, type ResourceRef } from "@/lib/platform/idempotency/replay";

/** POST /webhooks: the secret is never stored in an answer; it is opened from the subscription. */
export async function replayWebhook(auth: Pick<AuthContext, "merchant" | "shop" | "environment">, ref: ResourceRef) {
  const s = (await db().webhookSubscription.findFirst({ where: { id: ref.id, ...subscriptionScope(auth) } })) ?? boundResourceGone(ref);
  return { ...presentSubscription(s), secret: signingSecrets(s).current };
}
