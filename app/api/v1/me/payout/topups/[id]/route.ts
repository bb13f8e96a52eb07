import { methods, route } from "@/lib/platform/http/handler";
import { getTopupEndpoint } from "@/lib/topups/schema";
import { getTopup } from "@/lib/topups/topups";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getTopupEndpoint, async ({ auth, params }) => getTopup(auth, params.id)) });
