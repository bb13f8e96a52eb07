import { methods, reply, route } from "@/lib/platform/http/handler";
import { simulateDepositEndpoint } from "@/lib/deposits/schema";
import { simulateDeposit } from "@/lib/deposits/simulate-deposit";
import { replayDeposit } from "@/lib/deposits/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(simulateDepositEndpoint, async ({ auth, params, body }) => {
    const r = await simulateDeposit(auth, params.id, body);
    return reply(r.created ? 201 : 200, r);
  }, { replay: async (ref, { auth, params }) => reply(201, await replayDeposit(auth, params.id, ref)) }),
});
