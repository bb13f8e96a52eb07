// Upstream providers (PSPs). A provider is configured when its base URL and notice secret are
// set in the environment (PROVIDER_<CODE>_URL, PROVIDER_<CODE>_SECRET); only configured
// providers route traffic, so `routable` in the catalog tells the truth about "now".
import { singleton } from "@/lib/singleton";

export const PROVIDER_CODES = ["pagosur", "andespay", "rapidpay"] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];

export type ProviderConfig = { code: ProviderCode; baseUrl: string; secret: string; timeoutMs: number };

export function providerConfigs(): Map<string, ProviderConfig> {
  return singleton("provider-configs", () => {
    const out = new Map<string, ProviderConfig>();
    for (const code of PROVIDER_CODES) {
      const upper = code.toUpperCase();
      const baseUrl = process.env[`PROVIDER_${upper}_URL`];
      const secret = process.env[`PROVIDER_${upper}_SECRET`];
      if (baseUrl && secret) out.set(code, { code, baseUrl: baseUrl.replace(/\/+$/, ""), secret, timeoutMs: Number(process.env[`PROVIDER_${upper}_TIMEOUT_MS`] ?? 8000) });
    }
    return out;
  });
}

export function isProviderConfigured(code: string): boolean {
  return providerConfigs().has(code);
}
