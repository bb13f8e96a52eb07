import { methods, route } from "@/lib/platform/http/handler";
import { getPayoutEndpoint } from "@/lib/payouts/schema";
import { getPayout } from "@/lib/payouts/list-payouts";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getPayoutEndpoint, async ({ auth, params }) => getPayout(auth, params.id)) });
