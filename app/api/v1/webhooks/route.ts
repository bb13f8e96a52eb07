import { methods, route } from "@/lib/platform/http/handler";
import { createWebhookEndpoint, listWebhooksEndpoint } from "@/lib/webhooks/schema";
import { createSubscription, listSubscriptions } from "@/lib/webhooks/subscriptions";
import { replayWebhook } from "@/lib/webhooks/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // The answer holds the signing secret: never stored, a replay opens it from the subscription.
  POST: route(createWebhookEndpoint, async ({ auth, body }) => createSubscription(auth, body), { replay: async (ref, { auth }) => replayWebhook(auth, ref), storeAnswer: false }),
  GET: route(listWebhooksEndpoint, async ({ auth, query }) => listSubscriptions(auth, query)),
});
