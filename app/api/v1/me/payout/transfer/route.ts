import { methods, route } from "@/lib/http/handler";
import { transferEndpoint } from "@/lib/payouts/schema";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(transferEndpoint, async ({ auth, body }) => transferToPayout(auth, body)) });
