// The managed inbox's receiving URL (not part of the merchant API): signed deliveries only.
import { z } from "zod";
import { methods, route } from "@/lib/platform/http/handler";
import { NOTICE_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { receiveInboxDelivery } from "@/lib/webhooks/receive-inbox";

const inboxEndpoint = defineEndpoint({
  method: "POST",
  path: "/inbox/{subscriptionId}",
  tag: "Webhooks",
  summary: "Managed inbox receiver",
  auth: "none",
  rateLimit: false,
  internal: true,
  params: z.object({ subscriptionId: z.string().min(1).max(64) }),
  response: z.object({ received: z.boolean() }),
  errors: ["invalid_signature", "webhook_not_found"],
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(inboxEndpoint, async ({ params, request }) =>
    receiveInboxDelivery(params.subscriptionId, await readBody(request, NOTICE_BODY_LIMIT), {
      signature: request.headers.get("x-service-signature"),
      event: request.headers.get("x-service-event"),
      delivery: request.headers.get("x-service-delivery"),
    }),
  ),
});
