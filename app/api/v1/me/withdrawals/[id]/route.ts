import { methods, route } from "@/lib/platform/http/handler";
import { getWithdrawalEndpoint } from "@/lib/withdrawals/schema";
import { getWithdrawal } from "@/lib/withdrawals/list-withdrawals";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getWithdrawalEndpoint, async ({ auth, params }) => getWithdrawal(auth, params.id)) });
