import { methods, route } from "@/lib/http/handler";
import { clientIp } from "@/lib/http/client-ip";
import { createCheckoutSessionEndpoint } from "@/lib/checkout/schema";
import { createCheckoutSession } from "@/lib/checkout/create-session";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(createCheckoutSessionEndpoint, async ({ auth, body, request }) => createCheckoutSession(auth, body, { customerIp: clientIp(request.headers) })),
});
