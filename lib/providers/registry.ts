// Upstream providers (PSPs). A provider is configured when its base URL and secret are set in
// the environment (PROVIDER_<CODE>_URL, PROVIDER_<CODE>_SECRET: the secret our calls carry);
// only configured providers route traffic, so `routable` in the catalog tells the truth about
// "now". Its notices are verified with a different secret, PROVIDER_<CODE>_NOTICE_SECRET: one
// leaked direction never forges the other. Without it, every notice from that provider is
// refused (the status jobs still learn outcomes by asking).
import { singleton } from "@/lib/platform/singleton";

export const PROVIDER_CODES = ["pagosur", "andespay", "rapidpay"] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];

export type ProviderConfig = { code: ProviderCode; baseUrl: string; secret: string; noticeSecret: string | null; timeoutMs: number };

export function providerConfigs(): Map<string, ProviderConfig> {
  return singleton("provider-configs", () => {
    const out = new Map<string, ProviderConfig>();
    for (const code of PROVIDER_CODES) {
      const upper = code.toUpperCase();
      const baseUrl = process.env[`PROVIDER_${upper}_URL`];
      const secret = process.env[`PROVIDER_${upper}_SECRET`];
      const noticeSecret = process.env[`PROVIDER_${upper}_NOTICE_SECRET`] || null;
      // The same value both ways would let whoever can read our calls sign notices.
      if (baseUrl && secret) out.set(code, { code, baseUrl: baseUrl.replace(/\/+$/, ""), secret, noticeSecret: noticeSecret === secret ? null : noticeSecret, timeoutMs: Number(process.env[`PROVIDER_${upper}_TIMEOUT_MS`] ?? 8000) });
    }
    return out;
  });
}

export function isProviderConfigured(code: string): boolean {
  return providerConfigs().has(code);
}
