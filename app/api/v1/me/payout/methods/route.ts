import { methods, route } from "@/lib/platform/http/handler";
import { listMethodsEndpoint } from "@/lib/payouts/schema";
import { listPayoutMethods } from "@/lib/payouts/list-methods";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listMethodsEndpoint, async ({ auth }) => listPayoutMethods(auth)) });
