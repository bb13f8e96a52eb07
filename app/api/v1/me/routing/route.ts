import { methods, route } from "@/lib/platform/http/handler";
import { getRoutingEndpoint, putRoutingEndpoint } from "@/lib/routing/schema";
import { getRouting, putRouting } from "@/lib/routing/rules";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(getRoutingEndpoint, async ({ auth, query }) => getRouting(auth, query)),
  PUT: route(putRoutingEndpoint, async ({ auth, query, body }) => putRouting(auth, query, body)),
});
