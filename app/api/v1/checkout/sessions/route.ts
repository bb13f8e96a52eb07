import { methods, route } from "@/lib/http/handler";
import { clientIp } from "@/lib/http/client-ip";
import { createCheckoutSessionEndpoint } from "@/lib/checkout/schema";
import { createCheckoutSession } from "@/lib/checkout/create-session";
import { replayCheckoutSession } from "@/lib/http/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(createCheckoutSessionEndpoint, async ({ auth, body, request }) => createCheckoutSession(auth, body, { customerIp: clientIp(request.headers) }), {
    replay: async (ref, { auth }) => replayCheckoutSession(auth, ref),
  }),
});
