import { methods, route } from "@/lib/platform/http/handler";
import { NOTICE_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { payoutNoticeEndpoint } from "@/lib/payouts/schema";
import { applyPayoutNotice } from "@/lib/payouts/apply-payout-notice";

// The raw body is read here (not parsed by the wrapper): the signature covers its exact bytes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(payoutNoticeEndpoint, async ({ params, request }) => applyPayoutNotice(params.provider, await readBody(request, NOTICE_BODY_LIMIT), request.headers.get("x-provider-signature"))),
});
