// The managed inbox: a service-hosted receiver per managed subscription. It verifies each
// delivery exactly as a merchant's receiver would (signature, timestamp tolerance), then stores it.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { signingSecrets } from "@/lib/webhooks/subscriptions";
import { verifySignature } from "@/lib/webhooks/sign";

export async function receiveInboxDelivery(subscriptionId: string, rawBody: string, headers: { signature: string | null; event: string | null; delivery: string | null }) {
  const s = await db().webhookSubscription.findFirst({ where: { id: subscriptionId, managed: true, deletedAt: null } });
  if (!s) throw new AppError("webhook_not_found", "No managed inbox here.");
  const { current, previous } = signingSecrets(s);
  if (!verifySignature(headers.signature, rawBody, previous ? [current, previous] : [current])) {
    throw new AppError("invalid_signature", "The delivery's signature does not verify.");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new AppError("invalid_json", "The delivery body is not JSON.");
  }
  await db().inboxMessage.create({
    data: { id: newId("inboxMessage"), subscriptionId, deliveryId: headers.delivery ?? "", event: headers.event ?? "", payload: payload as object, signature: headers.signature!, verified: true },
  });
  return { received: true };
}
