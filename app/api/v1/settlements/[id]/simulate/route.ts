import { methods, route } from "@/lib/platform/http/handler";
import { replaySettlementSimulation } from "@/lib/settlements/replays";
import { simulateSettlementEndpoint } from "@/lib/settlements/schema";
import { simulateSettlement } from "@/lib/settlements/settle-batch";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateSettlementEndpoint, async ({ auth, params, body }) => simulateSettlement(auth, params.id, body.action), { replay: async (ref, { auth }) => replaySettlementSimulation(auth, ref) }) });
