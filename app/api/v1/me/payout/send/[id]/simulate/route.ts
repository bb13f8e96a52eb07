import { methods, route } from "@/lib/platform/http/handler";
import { replayPayoutSimulation } from "@/lib/payouts/replays";
import { simulatePayoutEndpoint } from "@/lib/payouts/schema";
import { simulatePayout } from "@/lib/payouts/simulate-payout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulatePayoutEndpoint, async ({ auth, params, body }) => simulatePayout(auth, params.id, body.action), { replay: async (ref, { auth }) => replayPayoutSimulation(auth, ref) }) });
