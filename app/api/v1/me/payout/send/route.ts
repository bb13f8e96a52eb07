import { methods, route } from "@/lib/platform/http/handler";
import { listPayoutsEndpoint, sendPayoutEndpoint } from "@/lib/payouts/schema";
import { sendPayout } from "@/lib/payouts/send-payout";
import { listPayouts } from "@/lib/payouts/list-payouts";
import { replayPayout } from "@/lib/payouts/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(sendPayoutEndpoint, async ({ auth, body }) => sendPayout(auth, body), { replay: async (ref, { auth }) => replayPayout(auth, ref) }),
  GET: route(listPayoutsEndpoint, async ({ auth, query }) => listPayouts(auth, query)),
});
