import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";

export const providerNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/providers/{provider}/notifications",
  tag: "Providers",
  summary: "Notices from upstream providers",
  description: "Called by providers, not by merchants. The body is signed with HMAC-SHA256 (hex) in `X-Provider-Signature`; unsigned or invalid notices get 401.",
  auth: "none",
  rateLimit: false,
  params: z.object({ provider: z.string().min(1).max(40) }),
  response: z.object({ received: z.boolean(), applied: z.boolean() }),
  errors: ["invalid_signature", "invalid_json", "invalid_request"],
});
