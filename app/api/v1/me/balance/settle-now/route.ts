import { methods, route } from "@/lib/platform/http/handler";
import { settleNowEndpoint } from "@/lib/ledger/schema";
import { settleNow } from "@/lib/settlements/settle-now";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(settleNowEndpoint, async ({ auth }) => settleNow(auth)) });
