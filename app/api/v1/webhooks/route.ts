import { methods, route } from "@/lib/http/handler";
import { createWebhookEndpoint, listWebhooksEndpoint } from "@/lib/webhooks/schema";
import { createSubscription, listSubscriptions } from "@/lib/webhooks/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(createWebhookEndpoint, async ({ auth, body }) => createSubscription(auth, body)),
  GET: route(listWebhooksEndpoint, async ({ auth, query }) => listSubscriptions(auth, query)),
});
