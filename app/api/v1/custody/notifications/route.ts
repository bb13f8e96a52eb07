import { methods, route } from "@/lib/platform/http/handler";
import { NOTICE_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { custodyNoticeEndpoint } from "@/lib/custody/schema";
import { receiveCustodyNotice } from "@/lib/custody/receive-notice";

// The raw body is read here (not parsed by the wrapper): the signature covers its exact bytes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(custodyNoticeEndpoint, async ({ request }) => receiveCustodyNotice(await readBody(request, NOTICE_BODY_LIMIT), request.headers.get("x-custody-signature"))),
});
