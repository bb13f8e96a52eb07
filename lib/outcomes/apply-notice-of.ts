// Which notice pipeline a provider's charge notice takes: a real provider's own scheme
// (apply-real-provider-notice.ts), or the common protocol's X-Provider-Signature (apply-provider-notice.ts).
import { applyProviderNotice } from "@/lib/outcomes/apply-provider-notice";
import { applyRealProviderNotice } from "@/lib/outcomes/apply-real-provider-notice";
import { providerConfigs } from "@/lib/providers/registry";

export async function applyNoticeOf(provider: string, rawBody: string, headers: Headers, url: URL) {
  if (providerConfigs().get(provider)?.kind === "real") return applyRealProviderNotice(provider, { rawBody, headers, url, now: new Date() });
  return applyProviderNotice(provider, rawBody, headers.get("x-provider-signature"));
}
