import { methods, route } from "@/lib/platform/http/handler";
import { listCurrenciesEndpoint } from "@/lib/payouts/schema";
import { listPayoutCurrencies } from "@/lib/payouts/list-methods";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listCurrenciesEndpoint, async ({ auth }) => listPayoutCurrencies(auth)) });
