import { methods, route } from "@/lib/platform/http/handler";
import { getBalanceEndpoint } from "@/lib/ledger/schema";
import { getBalance } from "@/lib/ledger/get-balance";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getBalanceEndpoint, async ({ auth }) => getBalance(auth)) });
