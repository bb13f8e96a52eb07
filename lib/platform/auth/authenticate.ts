// Resolves `Authorization: Bearer <access token | sk_* | pk_*>` into an AuthContext and applies
// an endpoint's requirements, in the order an integrator can act on: who are you, are you
// allowed here at all, is this the right key for this operation.
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import { hashSecretKey, looksLikeApiKey, maskKey, parseApiKey, type KeyKind } from "@/lib/platform/auth/keys";
import { verifyAccessToken } from "@/lib/platform/auth/jwt";
import { principalByKeyPairId, principalByPublishableKey, principalBySecretHash, type BeforeLookup, type Principal } from "@/lib/platform/auth/principal";
import { authorize, type Actor, type Permission } from "@/lib/platform/auth/policy";
import type { Environment } from "@/lib/generated/prisma/enums";

export type AuthContext = {
  merchant: Principal["merchant"];
  shop: Principal["shop"];
  environment: Environment;
  keyKind: KeyKind;
  keyPairId: string;
  /** Masked id of the key behind the credential, safe to show and log. */
  keyId: string;
  via: "api_key" | "access_token" | "checkout_session" | "dashboard";
  /** Who acts: the policy table (lib/platform/auth/policy.ts) decides by key kind, role or buyer. */
  actor: Actor;
  /** The client's address where the caller knows it (the dashboard), for the security log. */
  ip?: string;
};

export type AuthRequirements = {
  /** The endpoint's permission: key kind and environment come from the policy table. */
  permission: Permission;
  shop?: "required" | "optional";
  /** Runs before a credential is looked up in the database (not for cached ones). */
  beforeLookup?: BeforeLookup;
};

async function resolve(token: string, beforeLookup?: BeforeLookup): Promise<AuthContext> {
  if (looksLikeApiKey(token)) {
    const parsed = parseApiKey(token);
    const principal = parsed && (parsed.kind === "secret" ? await principalBySecretHash(hashSecretKey(token), beforeLookup) : await principalByPublishableKey(token, beforeLookup));
    if (!parsed || !principal || principal.revoked || principal.environment !== parsed.environment) {
      throw new AppError("invalid_api_key", "The API key is unknown, was rolled, or belongs to another environment.");
    }
    const last4 = parsed.kind === "secret" ? principal.secretPreview : principal.publishableKey.slice(-4);
    return context(principal, parsed.kind, "api_key", last4);
  }
  const claims = await verifyAccessToken(token);
  const principal = await principalByKeyPairId(claims.sub);
  if (!principal || principal.revoked || principal.merchant.id !== claims.mid || principal.environment !== claims.env) {
    throw new AppError("invalid_token", "The access token no longer matches an active key.");
  }
  if (principal.secretVersion !== claims.ver) {
    throw new AppError("invalid_token", "The secret key this token was issued for has been rolled; request a new token.");
  }
  return context(principal, claims.kind, "access_token", claims.kind === "secret" ? principal.secretPreview : principal.publishableKey.slice(-4));
}

function context(p: Principal, keyKind: KeyKind, via: AuthContext["via"], last4: string): AuthContext {
  return { merchant: p.merchant, shop: p.shop, environment: p.environment, keyKind, keyPairId: p.keyPairId, keyId: maskKey(keyKind, p.environment, last4), via, actor: { kind: "key", keyKind } };
}

/** The environment a request's host is bound to, when the deployment names a sandbox host. */
function hostEnvironment(host: string | null): Environment | null {
  const c = config();
  if (!c.SANDBOX_URL || !host) return null;
  const sandboxHost = new URL(c.SANDBOX_URL).host.toLowerCase();
  const appHost = new URL(c.APP_URL).host.toLowerCase();
  const h = host.toLowerCase();
  if (h === sandboxHost) return "sandbox";
  if (h === appHost && appHost !== sandboxHost) return "production";
  return null;
}

export function bearerToken(authorization: string | null): string {
  const value = authorization?.trim() ?? "";
  if (!value) throw new AppError("missing_credentials", "Send your secret key or an access token as `Authorization: Bearer <token>`.");
  const m = /^Bearer\s+(\S+)$/i.exec(value);
  if (!m) throw new AppError("missing_credentials", "The Authorization header must use the Bearer scheme: `Authorization: Bearer <token>`.");
  return m[1]!;
}

export async function authenticate(authorization: string | null, host: string | null, req: AuthRequirements): Promise<AuthContext> {
  const ctx = await resolve(bearerToken(authorization), req.beforeLookup);
  const bound = hostEnvironment(host);
  if (bound && bound !== ctx.environment) {
    throw new AppError("environment_mismatch", `This host serves ${bound} requests; the credential is for ${ctx.environment}.`);
  }
  if (ctx.merchant.status === "suspended") throw new AppError("merchant_suspended", "The merchant account is suspended. Contact support.");
  if (ctx.shop?.status === "suspended") throw new AppError("shop_suspended", "The shop is suspended. Contact support.");
  authorize(ctx, req.permission);
  if (req.shop === "required" && !ctx.shop) {
    throw new AppError("shop_required", "This operation needs a shop-bound credential; the credential covers a whole merchant.");
  }
  return ctx;
}
