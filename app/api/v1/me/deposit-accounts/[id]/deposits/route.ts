import { methods, route } from "@/lib/platform/http/handler";
import { listDepositsEndpoint } from "@/lib/deposits/schema";
import { listDeposits } from "@/lib/deposits/list-deposits";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listDepositsEndpoint, async ({ auth, params, query }) => listDeposits(auth, params.id, query)) });
