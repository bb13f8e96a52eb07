import { methods, route } from "@/lib/platform/http/handler";
import { cancelMandateEndpoint } from "@/lib/mandates/schema";
import { cancelMandate } from "@/lib/mandates/cancel-mandate";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(cancelMandateEndpoint, async ({ auth, params }) => cancelMandate(auth, params.id)) });
