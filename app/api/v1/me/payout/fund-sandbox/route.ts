import { methods, route } from "@/lib/platform/http/handler";
import { fundSandboxEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { replayFunding } from "@/lib/payouts/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(fundSandboxEndpoint, async ({ auth, body }) => fundSandbox(auth, body), { replay: async (_ref, { auth, body }) => replayFunding(auth, body) }) });
