import { methods, route } from "@/lib/platform/http/handler";
import { listDeliveriesEndpoint } from "@/lib/webhooks/schema";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listDeliveriesEndpoint, async ({ auth, params, query }) => listDeliveries(auth, params.id, query)) });
