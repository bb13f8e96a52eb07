import { methods, route } from "@/lib/platform/http/handler";
import { clientIp } from "@/lib/platform/http/client-ip";
import { createCheckoutSessionEndpoint } from "@/lib/checkout/schema";
import { createCheckoutSession } from "@/lib/checkout/create-session";
import { replayCheckoutSession } from "@/lib/checkout/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(createCheckoutSessionEndpoint, async ({ auth, body, request }) => createCheckoutSession(auth, body, { customerIp: clientIp(request.headers) }), {
    replay: async (ref, { auth }) => replayCheckoutSession(auth, ref),
  }),
});
