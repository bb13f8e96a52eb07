import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

export const providerNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/notifications",
  tag: "Providers",
  summary: "Notices from upstream providers",
  description: "Called by providers, not by merchants. The body is signed `X-Provider-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\">` with the provider's notice secret (not the secret our calls carry); unsigned, forged, outbound-secret or more than 5 minutes old notices get 401. The noticeId is recorded once with its effect: a replay is acknowledged and changes nothing.",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40) }),
  response: z.object({ received: z.boolean(), applied: z.boolean() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request"],
});
