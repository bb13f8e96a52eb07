import { methods, route } from "@/lib/platform/http/handler";
import { runSettlementEndpoint } from "@/lib/settlements/schema";
import { closeSettlement } from "@/lib/settlements/close-settlement";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(runSettlementEndpoint, async ({ auth }) => closeSettlement(auth, { periodTo: new Date() })) });
