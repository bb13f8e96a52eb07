import { methods, route } from "@/lib/platform/http/handler";
import { acceptClaimEndpoint } from "@/lib/claims/schema";
import { acceptChargeback } from "@/lib/claims/decide-chargeback";
import { getClaim } from "@/lib/claims/get-claim";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(acceptClaimEndpoint, async ({ auth, params }) => acceptChargeback(auth, params.id), { replay: (ref, { auth }) => getClaim(auth, ref.id) }),
});
