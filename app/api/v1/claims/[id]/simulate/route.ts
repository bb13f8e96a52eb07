import { methods, route } from "@/lib/platform/http/handler";
import { replayClaimSimulation } from "@/lib/claims/replays";
import { simulateClaimEndpoint } from "@/lib/claims/schema";
import { simulateChargebackOutcome } from "@/lib/claims/decide-chargeback";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(simulateClaimEndpoint, async ({ auth, params, body }) => simulateChargebackOutcome(auth, params.id, body.action), { replay: async (ref, { auth }) => replayClaimSimulation(auth, ref) }),
});
