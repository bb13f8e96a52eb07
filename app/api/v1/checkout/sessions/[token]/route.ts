import { methods, route } from "@/lib/platform/http/handler";
import { getCheckoutSessionEndpoint } from "@/lib/checkout/schema";
import { getCheckoutSession } from "@/lib/checkout/get-session";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(getCheckoutSessionEndpoint, async ({ params }) => getCheckoutSession(params.token)),
});
