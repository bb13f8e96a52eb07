import { methods, route } from "@/lib/platform/http/handler";
import { listSettlementsEndpoint } from "@/lib/settlements/schema";
import { listSettlements } from "@/lib/settlements/list-settlements";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listSettlementsEndpoint, async ({ auth, query }) => listSettlements(auth, query)) });
