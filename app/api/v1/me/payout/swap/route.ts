import { methods, route } from "@/lib/platform/http/handler";
import { executeSwapEndpoint, quoteSwapEndpoint } from "@/lib/payouts/schema";
import { executeSwap, quoteSwap } from "@/lib/payouts/swap";
import { replaySwap } from "@/lib/payouts/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(quoteSwapEndpoint, async ({ auth, query }) => quoteSwap(auth, query)),
  POST: route(executeSwapEndpoint, async ({ auth, body }) => executeSwap(auth, body), { replay: async (ref, { auth }) => replaySwap(auth, ref) }),
});
