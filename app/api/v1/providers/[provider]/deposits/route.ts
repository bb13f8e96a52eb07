import { methods, route } from "@/lib/http/handler";
import { depositNoticeEndpoint } from "@/lib/deposits/schema";
import { applyDepositNotice } from "@/lib/deposits/apply-deposit-notice";

// The raw body is read here (not parsed by the wrapper): the signature covers its exact bytes.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route(depositNoticeEndpoint, async ({ params, request }) => applyDepositNotice(params.provider, await request.text(), request.headers.get("x-provider-signature"))),
});
