import { methods, route } from "@/lib/platform/http/handler";
import { simulateMandateEndpoint } from "@/lib/mandates/schema";
import { simulateMandate } from "@/lib/mandates/simulate-mandate";
import { replayMandate } from "@/lib/mandates/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateMandateEndpoint, async ({ auth, params, body }) => simulateMandate(auth, params.id, body.action), { replay: (ref, { auth }) => replayMandate(auth, ref) }) });
