// Upstream providers (PSPs), configured in the environment; only configured providers route
// traffic, so `routable` in the catalog tells the truth about "now".
//
// Two kinds:
// - the common protocol's providers (pagosur, andespay, rapidpay: our simulators in development
//   and tests): PROVIDER_<CODE>_URL and PROVIDER_<CODE>_SECRET (what our calls carry) both set;
//   their notices are verified with PROVIDER_<CODE>_NOTICE_SECRET, a different secret, so one
//   leaked direction never forges the other (without it, every notice is refused and the status
//   jobs learn outcomes by asking);
// - real providers (stripe, mercadopago, ebanx), each speaking its own API: configured by its
//   secret alone, under the names decisions.md gives ("Real providers": PROVIDER_STRIPE_SECRET_KEY,
//   PROVIDER_MERCADOPAGO_ACCESS_TOKEN, PROVIDER_EBANX_INTEGRATION_KEY), its notice secret where its
//   scheme signs (PROVIDER_STRIPE_WEBHOOK_SECRET, PROVIDER_MERCADOPAGO_WEBHOOK_SECRET, and EBANX's
//   public notification certificate as PROVIDER_EBANX_NOTICE_CERTIFICATE), and an optional
//   PROVIDER_<CODE>_URL replacing the provider's own API host (tests point it at a simulator; in
//   production it must be https and no loopback or private address).
// Any provider's PROVIDER_<CODE>_RAILS (catalog ids, comma-separated) narrows the rails it serves
// to a subset of those the catalog lists it for; PROVIDER_<CODE>_TIMEOUT_MS bounds each call;
// PROVIDER_<CODE>_COSTS is its cost table (lib/providers/costs.ts), read by net_revenue routing.
// A malformed value stops the start (`providerConfigErrors`), never a payment.
import { createPublicKey } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { singleton } from "@/lib/platform/singleton";
import { costFrom, parseCosts, type CostTable, type ProviderCost } from "@/lib/providers/costs";
import { railById } from "@/lib/rails/rails";
export { providerName } from "@/lib/providers/names";

export const SIMULATED_PROVIDER_CODES = ["pagosur", "andespay", "rapidpay"] as const;
export const REAL_PROVIDER_CODES = ["stripe", "mercadopago", "ebanx"] as const;
export const PROVIDER_CODES = [...SIMULATED_PROVIDER_CODES, ...REAL_PROVIDER_CODES] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];
export type RealProviderCode = (typeof REAL_PROVIDER_CODES)[number];

/** What an operator needs to know of each real provider: its name, its API host, the shape of its secrets. */
export const REAL_PROVIDERS: Record<RealProviderCode, { name: string; defaultUrl: string; secret: RegExp; secretHint: string; noticeSecret: RegExp | null; noticeSecretHint: string }> = {
  // https://docs.stripe.com/keys (sk_test_/sk_live_, restricted rk_), https://docs.stripe.com/webhooks#verify-events (whsec_)
  stripe: { name: "Stripe", defaultUrl: "https://api.stripe.com", secret: /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, secretHint: "a secret key, sk_test_… or sk_live_… (or a restricted rk_…)", noticeSecret: /^whsec_[A-Za-z0-9+/=]{8,}$/, noticeSecretHint: "the webhook endpoint's signing secret, whsec_…" },
  // https://www.mercadopago.com.br/developers/en/docs/your-integrations/credentials (APP_USR-… / TEST-…)
  mercadopago: { name: "Mercado Pago", defaultUrl: "https://api.mercadopago.com", secret: /^(APP_USR|TEST)-[A-Za-z0-9-]{8,}$/, secretHint: "an access token, APP_USR-… (or TEST-…)", noticeSecret: /^\S{16,}$/, noticeSecretHint: "the webhook's secret signature (Your integrations > Webhooks)" },
  // https://docs.ebanx.com (the integration key of the merchant area). EBANX signs its notices
  // (RSA-SHA1, https://docs.ebanx.com/docs/payments/guides/features/payment-notifications): the
  // notice secret is EBANX's public notification certificate, PEM (line breaks may be written "\n").
  ebanx: { name: "EBANX", defaultUrl: "https://api.ebanxpay.com", secret: /^\S{16,}$/, secretHint: "the integration key", noticeSecret: /^-----BEGIN (CERTIFICATE|PUBLIC KEY)-----[\s\S]+-----END (CERTIFICATE|PUBLIC KEY)-----\s*$/, noticeSecretHint: "EBANX's notification certificate in PEM (fingerprint 4ABAD89CF66B99998465470550EB15E3E271A246 on EBANX's notifications page)" },
};

/** Where each real provider's two secrets are read from (decisions.md, "Real providers"). */
const REAL_PROVIDER_ENV: Record<RealProviderCode, { secret: string; noticeSecret: string }> = {
  stripe: { secret: "PROVIDER_STRIPE_SECRET_KEY", noticeSecret: "PROVIDER_STRIPE_WEBHOOK_SECRET" },
  mercadopago: { secret: "PROVIDER_MERCADOPAGO_ACCESS_TOKEN", noticeSecret: "PROVIDER_MERCADOPAGO_WEBHOOK_SECRET" },
  // decisions.md names no variable for it: EBANX's notices are signed only where the merchant
  // asked EBANX for it; without the certificate they are answered and read back (see connector).
  ebanx: { secret: "PROVIDER_EBANX_INTEGRATION_KEY", noticeSecret: "PROVIDER_EBANX_NOTICE_CERTIFICATE" },
};

/** The variables a provider is configured by: the real providers' own names, `_SECRET` / `_NOTICE_SECRET` for the common protocol's. */
export function providerEnvNames(code: ProviderCode): { url: string; secret: string; noticeSecret: string; rails: string; timeout: string; costs: string } {
  const upper = code.toUpperCase();
  const own = isReal(code) ? REAL_PROVIDER_ENV[code] : { secret: `PROVIDER_${upper}_SECRET`, noticeSecret: `PROVIDER_${upper}_NOTICE_SECRET` };
  return { url: `PROVIDER_${upper}_URL`, ...own, rails: `PROVIDER_${upper}_RAILS`, timeout: `PROVIDER_${upper}_TIMEOUT_MS`, costs: `PROVIDER_${upper}_COSTS` };
}

export type ProviderConfig = {
  code: ProviderCode;
  kind: "simulated" | "real";
  baseUrl: string;
  secret: string;
  noticeSecret: string | null;
  timeoutMs: number;
  /** The catalog ids this provider is limited to (PROVIDER_<CODE>_RAILS); null: every rail the catalog lists it for. */
  rails: ReadonlySet<string> | null;
  /** PROVIDER_<CODE>_COSTS by rail (null: the rails' published fees). */
  costs?: CostTable | null;
};

function isReal(code: string): code is RealProviderCode {
  return (REAL_PROVIDER_CODES as readonly string[]).includes(code);
}

function readConfig(code: ProviderCode, env: Record<string, string | undefined>): ProviderConfig | null {
  const names = providerEnvNames(code);
  const real = isReal(code);
  const baseUrl = env[names.url] || (real ? REAL_PROVIDERS[code].defaultUrl : "");
  const secret = env[names.secret];
  if (!baseUrl || !secret) return null;
  const noticeSecret = env[names.noticeSecret] || null;
  const rails = env[names.rails]?.trim();
  return {
    code,
    kind: real ? "real" : "simulated",
    baseUrl: baseUrl.replace(/\/+$/, ""),
    secret,
    // The same value both ways would let whoever can read our calls sign notices.
    noticeSecret: noticeSecret === secret ? null : noticeSecret,
    timeoutMs: Number(env[names.timeout] ?? 8000),
    rails: rails ? new Set(rails.split(",").map((r) => r.trim()).filter(Boolean)) : null,
    // A malformed table stops the start (providerConfigErrors); here it reads as none.
    costs: env[names.costs] ? ((c) => (typeof c === "string" ? null : c))(parseCosts(env[names.costs]!)) : null,
  };
}

/** What is wrong with the providers' configuration, one line each (empty: nothing). Checked at start. */
export function providerConfigErrors(env: Record<string, string | undefined> = process.env, production = env.APP_ENV === "production"): string[] {
  const errors: string[] = [];
  for (const code of PROVIDER_CODES) {
    const names = providerEnvNames(code);
    const url = env[names.url];
    if (url) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {}
      if (!parsed || !/^https?:$/.test(parsed.protocol)) errors.push(`${names.url} is not an http(s) URL`);
      else if (production && isReal(code) && parsed.protocol !== "https:") errors.push(`${names.url} must be https in production`);
      else if (production && isReal(code) && isLocalHost(parsed.hostname)) errors.push(`${names.url} names a loopback or private address: no simulator stands in for ${REAL_PROVIDERS[code].name} in production`);
    }
    const timeout = env[names.timeout];
    const costs = env[names.costs];
    if (costs) {
      const parsed = parseCosts(costs);
      if (typeof parsed === "string") errors.push(`${names.costs}: ${parsed}`);
      else for (const rail of parsed.keys()) if (rail !== "*" && !railById(rail)) errors.push(`${names.costs}: no rail ${rail} in the catalog`);
    }
    if (timeout !== undefined && !(Number.isInteger(Number(timeout)) && Number(timeout) >= 100 && Number(timeout) <= 120_000)) errors.push(`${names.timeout} must be a whole number of milliseconds from 100 to 120000`);
    if (!isReal(code)) continue;
    const spec = REAL_PROVIDERS[code];
    // The generic names of an earlier version are not read: said, so a key set there is not lost in silence.
    for (const generic of [`PROVIDER_${code.toUpperCase()}_SECRET`, `PROVIDER_${code.toUpperCase()}_NOTICE_SECRET`]) {
      if (env[generic]) errors.push(`${generic} is not read: ${spec.name} is configured by ${names.secret} and ${names.noticeSecret}`);
    }
    const secret = env[names.secret];
    const noticeSecret = env[names.noticeSecret];
    // The values themselves are never printed: they are secrets.
    if (secret && !spec.secret.test(secret)) errors.push(`${names.secret} does not look like ${spec.secretHint}`);
    if (noticeSecret && spec.noticeSecret && !spec.noticeSecret.test(noticeSecret)) errors.push(`${names.noticeSecret} does not look like ${spec.noticeSecretHint}`);
    // EBANX's certificate is read as a key (lib/providers/ebanx/notices.ts noticeKey): a PEM of the
    // right shape that is no key would refuse every notice in silence, so it stops the start.
    else if (noticeSecret && code === "ebanx" && !isPublicKey(noticeSecret)) errors.push(`${names.noticeSecret} is not a certificate or public key that can be read: ${spec.noticeSecretHint}`);
    // Stripe and Mercado Pago sign every notice: without the secret each would be refused. EBANX
    // signs only on request; its unsigned notices are read back, which alone decides.
    if (secret && !noticeSecret && production && code !== "ebanx") errors.push(`${names.noticeSecret} is required in production (${spec.noticeSecretHint}): without it every ${spec.name} notice is refused`);
    if (!secret && (noticeSecret || url)) errors.push(`${names.secret} is missing: ${spec.name} is half configured`);
  }
  return errors;

  function isLocalHost(hostname: string): boolean {
    const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (host === "localhost" || host.endsWith(".localhost")) return true;
    const family = isIP(host);
    return family !== 0 && LOCAL_RANGES.check(host, family === 4 ? "ipv4" : "ipv6");
  }

  function isPublicKey(pem: string): boolean {
    try {
      createPublicKey(pem.replace(/\\n/g, "\n"));
      return true;
    } catch {
      return false;
    }
  }
}

/** Loopback, private, link-local and unique-local ranges: never a real provider's host in production. */
const LOCAL_RANGES = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [["127.0.0.0", 8], ["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["169.254.0.0", 16], ["100.64.0.0", 10], ["0.0.0.0", 8]] as const) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of [["::1", 128], ["::", 128], ["fc00::", 7], ["fe80::", 10], ["::ffff:0:0", 96]] as const) list.addSubnet(net, prefix, "ipv6");
  return list;
})();

export function providerConfigs(): Map<string, ProviderConfig> {
  return singleton("provider-configs", () => {
    const out = new Map<string, ProviderConfig>();
    for (const code of PROVIDER_CODES) {
      const cfg = readConfig(code, process.env);
      if (cfg) out.set(code, cfg);
    }
    return out;
  });
}

export function isProviderConfigured(code: string): boolean {
  return providerConfigs().has(code);
}

/** What an attempt at `code` on catalog rail `railId` costs (lib/providers/costs.ts; an unknown rail costs nothing). */
export function providerCost(code: string, railId: string): ProviderCost {
  const rail = railById(railId);
  if (!rail) return { bp: 0, fixedUsdMinor: 0, failedUsdMinor: 0 };
  return costFrom(providerConfigs().get(code)?.costs ?? null, rail);
}

/** Whether a configured provider serves catalog rail `railId` now (PROVIDER_<CODE>_RAILS narrows it). */
export function providerServesRail(code: string, railId: string): boolean {
  const cfg = providerConfigs().get(code);
  return !!cfg && (cfg.rails === null || cfg.rails.has(railId));
}
