import { methods, route } from "@/lib/platform/http/handler";
import { evaluateRoutingEndpoint } from "@/lib/routing/evaluate-schema";
import { evaluateRoutingRules } from "@/lib/routing/evaluate-rules";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(evaluateRoutingEndpoint, async ({ auth, query, body }) => evaluateRoutingRules(auth, query, body)),
});
