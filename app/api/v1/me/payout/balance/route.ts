import { methods, route } from "@/lib/platform/http/handler";
import { getPayoutBalanceEndpoint } from "@/lib/payouts/schema";
import { getPayoutBalance } from "@/lib/payouts/balances";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getPayoutBalanceEndpoint, async ({ auth }) => getPayoutBalance(auth)) });
