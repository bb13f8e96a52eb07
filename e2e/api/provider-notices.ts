// Signing provider notices in tests the way a provider does (lib/providers/http-psp/transformers.ts):
// `t=<unix>,v1=<hex HMAC of "<t>.<body>">` with the provider's NOTICE secret, which `npm test`
// sets apart from the secret our own calls carry.
import { signNotice } from "@/lib/providers/http-psp/transformers";
import { providerEnvNames, type ProviderCode } from "@/lib/providers/registry";

export const noticeSecret = (provider: string) => process.env[providerEnvNames(provider as ProviderCode).noticeSecret]!;
export const outboundSecret = (provider: string) => process.env[providerEnvNames(provider as ProviderCode).secret]!;

/** Headers of a notice signed by `provider` (or with `secret`), at `at` (unix seconds, default now). */
export function signedNotice(provider: string, body: string, opts: { at?: number; secret?: string } = {}): Record<string, string> {
  return { "content-type": "application/json", "x-provider-signature": signNotice(opts.secret ?? noticeSecret(provider), body, opts.at) };
}
