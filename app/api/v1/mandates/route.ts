import { methods, route } from "@/lib/platform/http/handler";
import { createMandateEndpoint, listMandatesEndpoint } from "@/lib/mandates/schema";
import { createMandate } from "@/lib/mandates/create-mandate";
import { listMandates } from "@/lib/mandates/list-mandates";
import { replayMandate } from "@/lib/mandates/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listMandatesEndpoint, async ({ auth, query }) => listMandates(auth, query)),
  POST: route(createMandateEndpoint, async ({ auth, body }) => createMandate(auth, body), { replay: (ref, { auth }) => replayMandate(auth, ref) }),
});
