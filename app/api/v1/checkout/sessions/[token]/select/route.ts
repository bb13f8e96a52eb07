import { methods, route } from "@/lib/platform/http/handler";
import { clientIp } from "@/lib/platform/http/client-ip";
import { selectCheckoutMethodEndpoint } from "@/lib/checkout/schema";
import { selectCheckoutMethod } from "@/lib/checkout/select-method";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(selectCheckoutMethodEndpoint, async ({ params, body, request }) => selectCheckoutMethod(params.token, body, { requestIp: clientIp(request.headers) })),
});
