import { methods, route } from "@/lib/platform/http/handler";
import { listChargesEndpoint, scheduleChargeEndpoint } from "@/lib/mandates/schema";
import { scheduleMandateCharge } from "@/lib/mandates/schedule-charge";
import { listMandateCharges } from "@/lib/mandates/list-charges";
import { replayMandateCharge } from "@/lib/mandates/replays";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route(listChargesEndpoint, async ({ auth, params }) => listMandateCharges(auth, params.id)),
  POST: route(scheduleChargeEndpoint, async ({ auth, params, body }) => scheduleMandateCharge(auth, params.id, body), { replay: (ref, { auth }) => replayMandateCharge(auth, ref) }),
});
