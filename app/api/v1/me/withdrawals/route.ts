import { methods, route } from "@/lib/platform/http/handler";
import { createWithdrawalEndpoint, listWithdrawalsEndpoint } from "@/lib/withdrawals/schema";
import { replayWithdrawal, requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listWithdrawalsEndpoint, async ({ auth, query }) => listWithdrawals(auth, query)),
  POST: route(createWithdrawalEndpoint, async ({ auth, body }) => requestWithdrawal(auth, body), { replay: (ref, { auth }) => replayWithdrawal(auth, ref.id) }),
});
