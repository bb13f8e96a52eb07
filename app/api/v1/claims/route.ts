import { methods, route } from "@/lib/platform/http/handler";
import { listClaimsEndpoint } from "@/lib/claims/schema";
import { listClaims } from "@/lib/claims/list-claims";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(listClaimsEndpoint, async ({ auth, query }) => listClaims(auth, query)) });
