import { methods, route } from "@/lib/platform/http/handler";
import { replayTopupSimulation } from "@/lib/topups/replays";
import { simulateTopupEndpoint } from "@/lib/topups/schema";
import { simulateTopup } from "@/lib/topups/topups";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateTopupEndpoint, async ({ auth, params, body }) => simulateTopup(auth, params.id, body.amount), { replay: async (ref, { auth }) => replayTopupSimulation(auth, ref) }) });
