import { methods, route } from "@/lib/platform/http/handler";
import { submitEvidenceEndpoint } from "@/lib/claims/schema";
import { submitEvidence } from "@/lib/claims/submit-evidence";
import { getClaim } from "@/lib/claims/get-claim";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(submitEvidenceEndpoint, async ({ auth, params, body }) => submitEvidence(auth, params.id, body), { replay: (ref, { auth }) => getClaim(auth, ref.id) }),
});
