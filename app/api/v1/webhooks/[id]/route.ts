import { methods, route } from "@/lib/platform/http/handler";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/webhooks/schema";
import { deleteSubscription, findSubscription, presentSubscription, updateSubscription } from "@/lib/webhooks/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(getWebhookEndpoint, async ({ auth, params }) => presentSubscription(await findSubscription(auth, params.id))),
  PATCH: route(updateWebhookEndpoint, async ({ auth, params, body }) => updateSubscription(auth, params.id, body)),
  DELETE: route(deleteWebhookEndpoint, async ({ auth, params }) => deleteSubscription(auth, params.id)),
});
