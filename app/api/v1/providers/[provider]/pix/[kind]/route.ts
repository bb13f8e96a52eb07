import { methods, route } from "@/lib/platform/http/handler";
import { NOTICE_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { pixNoticeEndpoint } from "@/lib/mandates/schema";
import { applyPixNotice } from "@/lib/mandates/apply-pix-notice";

// The raw body is read here (not parsed by the wrapper): the signature covers its exact bytes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(pixNoticeEndpoint, async ({ params, request }) => applyPixNotice(params.provider, params.kind, await readBody(request, NOTICE_BODY_LIMIT), request.headers.get("x-provider-signature"))),
});
