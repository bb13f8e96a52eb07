import { methods, route } from "@/lib/platform/http/handler";
import { transferEndpoint } from "@/lib/payouts/schema";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";
import { replayTransfer } from "@/lib/payouts/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(transferEndpoint, async ({ auth, body }) => transferToPayout(auth, body), { replay: async (ref, { auth }) => replayTransfer(auth, ref) }) });
