import { methods, route } from "@/lib/platform/http/handler";
import { reportListenEndpoint } from "@/lib/webhooks/listen-schema";
import { reportListenResult } from "@/lib/webhooks/listen-report";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(reportListenEndpoint, async ({ auth, params, body }) => reportListenResult(auth, params.deliveryId, body)),
});
