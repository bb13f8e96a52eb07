import { methods, route } from "@/lib/platform/http/handler";
import { NOTICE_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { providerNoticeEndpoint } from "@/lib/providers/schema";
import { applyNoticeOf } from "@/lib/outcomes/apply-notice-of";

// The raw body is read here (not parsed by the wrapper): the signature covers its exact bytes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(providerNoticeEndpoint, async ({ params, request }) => applyNoticeOf(params.provider, await readBody(request, NOTICE_BODY_LIMIT), request.headers, new URL(request.url))),
});
