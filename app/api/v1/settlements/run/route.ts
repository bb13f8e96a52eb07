import { methods, route } from "@/lib/platform/http/handler";
import { runSettlementEndpoint } from "@/lib/settlements/schema";
import { runSettlement } from "@/lib/settlements/run-settlement";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(runSettlementEndpoint, async ({ auth, body }) => runSettlement(auth, body)) });
