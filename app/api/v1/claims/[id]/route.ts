import { methods, route } from "@/lib/platform/http/handler";
import { getClaimEndpoint } from "@/lib/claims/schema";
import { getClaim } from "@/lib/claims/get-claim";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getClaimEndpoint, async ({ auth, params }) => getClaim(auth, params.id)) });
