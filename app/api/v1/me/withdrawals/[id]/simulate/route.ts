import { methods, route } from "@/lib/platform/http/handler";
import { replayWithdrawalSimulation } from "@/lib/withdrawals/replays";
import { simulateWithdrawalEndpoint } from "@/lib/withdrawals/schema";
import { simulateWithdrawal } from "@/lib/withdrawals/settle-withdrawal";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateWithdrawalEndpoint, async ({ auth, params, body }) => simulateWithdrawal(auth, params.id, body.action), { replay: async (ref, { auth }) => replayWithdrawalSimulation(auth, ref) }) });
