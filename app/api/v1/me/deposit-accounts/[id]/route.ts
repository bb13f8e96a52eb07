import { methods, route } from "@/lib/platform/http/handler";
import { getAccountEndpoint } from "@/lib/deposits/schema";
import { getDepositAccount } from "@/lib/deposits/list-accounts";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getAccountEndpoint, async ({ auth, params }) => getDepositAccount(auth, params.id)) });
