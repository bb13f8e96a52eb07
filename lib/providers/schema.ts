import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

export const providerNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/notifications",
  tag: "Providers",
  summary: "Notices from upstream providers",
  description: "Called by providers, not by merchants. The body is signed `X-Provider-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the provider's notice secret (not the secret our calls carry); unsigned, forged, outbound-secret or more than 5 minutes old notices get 401. The noticeId is recorded once with its effect: a replay is acknowledged and changes nothing. Real providers post here in their own schemes: `stripe` (a Stripe event, `Stripe-Signature`), `mercadopago` (a webhook notification, `x-signature` over its manifest), `ebanx` (a status-change notification naming payment hashes, RSA-SHA1-signed with EBANX's certificate: `X-SignatureContent`); each is verified first (401 otherwise) and only points: the status applied is read back from the provider's API (503 when it does not answer, so the provider delivers again).",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40) }),
  response: z.object({ received: z.boolean(), applied: z.boolean() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request", "service_unavailable"],
});
