import { methods, route } from "@/lib/platform/http/handler";
import { getMandateEndpoint } from "@/lib/mandates/schema";
import { getMandate } from "@/lib/mandates/get-mandate";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getMandateEndpoint, async ({ auth, params }) => getMandate(auth, params.id)) });
