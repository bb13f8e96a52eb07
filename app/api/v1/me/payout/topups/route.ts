import { methods, route } from "@/lib/platform/http/handler";
import { createTopupEndpoint, listTopupsEndpoint } from "@/lib/topups/schema";
import { createTopup, getTopup, listTopups } from "@/lib/topups/topups";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listTopupsEndpoint, async ({ auth, query }) => listTopups(auth, query)),
  POST: route(createTopupEndpoint, async ({ auth, body }) => createTopup(auth, body), { replay: (ref, { auth }) => getTopup(auth, ref.id) }),
});
