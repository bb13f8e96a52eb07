import { methods, route } from "@/lib/platform/http/handler";
import { getDestinationEndpoint, setDestinationEndpoint } from "@/lib/crypto-assets/schema";
import { getSettlementDestination, setSettlementDestination } from "@/lib/crypto-assets/settlement-destination";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(getDestinationEndpoint, async ({ auth }) => getSettlementDestination(auth)),
  PUT: route(setDestinationEndpoint, async ({ auth, body }) => setSettlementDestination(auth, body)),
});
