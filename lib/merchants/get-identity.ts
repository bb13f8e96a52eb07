import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { SANDBOX_RAILS } from "@/lib/rails/rails";
import { API_VERSION } from "@/lib/platform/contract/version";
import { SUPPORTED_PAIR_NAMES } from "@/lib/crypto-assets/networks";

export function ping(auth: AuthContext) {
  return {
    ok: true,
    environment: auth.environment,
    keyKind: auth.keyKind,
    keyId: auth.keyId,
    apiVersion: API_VERSION,
    merchant: { id: auth.merchant.id, name: auth.merchant.name },
    timestamp: new Date().toISOString(),
  };
}

/** Section 2.3. Method capabilities come from the rails routable in the credential's environment. */
export function merchantIdentity(auth: AuthContext) {
  const m = auth.merchant;
  const methods = auth.environment === "sandbox" ? [...new Set(SANDBOX_RAILS.map((r) => r.method))] : [];
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    industry: m.industry,
    tier: m.tier,
    trustScore: m.trustScore,
    environment: auth.environment,
    capabilities: { checkout: true, directCharge: true, refunds: true, webhooks: true, crypto: [...SUPPORTED_PAIR_NAMES], methods },
  };
}
