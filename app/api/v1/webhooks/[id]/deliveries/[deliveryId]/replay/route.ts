import { methods, route } from "@/lib/platform/http/handler";
import { replayDeliveryEndpoint } from "@/lib/webhooks/schema";
import { replayDelivery } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(replayDeliveryEndpoint, async ({ auth, params }) => replayDelivery(auth, params.id, params.deliveryId)) });
