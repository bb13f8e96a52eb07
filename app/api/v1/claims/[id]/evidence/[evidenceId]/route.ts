import { methods, route } from "@/lib/platform/http/handler";
import { getEvidenceFileEndpoint } from "@/lib/claims/schema";
import { evidenceFile } from "@/lib/claims/submit-evidence";

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(getEvidenceFileEndpoint, async ({ auth, params }) => evidenceFile(auth, params.id, params.evidenceId)) });
