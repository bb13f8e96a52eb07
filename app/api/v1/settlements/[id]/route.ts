import { methods, route } from "@/lib/platform/http/handler";
import { getSettlementEndpoint } from "@/lib/settlements/schema";
import { getSettlement } from "@/lib/settlements/list-settlements";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getSettlementEndpoint, async ({ auth, params }) => getSettlement(auth, params.id)) });
