import { methods, route } from "@/lib/http/handler";
import { simulateTopupEndpoint } from "@/lib/topups/schema";
import { simulateTopup } from "@/lib/topups/topups";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: route(simulateTopupEndpoint, async ({ auth, params, body }) => simulateTopup(auth, params.id, body.amount)) });
