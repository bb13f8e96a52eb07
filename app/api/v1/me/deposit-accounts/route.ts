import { methods, reply, route } from "@/lib/platform/http/handler";
import { getOrCreateAccountEndpoint, listAccountsEndpoint } from "@/lib/deposits/schema";
import { getOrCreateDepositAccount } from "@/lib/deposits/get-or-create-account";
import { listDepositAccounts } from "@/lib/deposits/list-accounts";
import { replayDepositAccount } from "@/lib/deposits/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // 201 for a new account, 200 for the existing one (4.6).
  POST: route(getOrCreateAccountEndpoint, async ({ auth, body }) => {
    const r = await getOrCreateDepositAccount(auth, body);
    return reply(r.created ? 201 : 200, r);
  }, { replay: async (ref, { auth }) => reply(201, await replayDepositAccount(auth, ref)) }),
  GET: route(listAccountsEndpoint, async ({ auth, query }) => listDepositAccounts(auth, query)),
});
