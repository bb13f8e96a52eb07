// The one gate: every caller's credential becomes the same AuthContext (merchant, shop,
// environment and the acting key, user or buyer), and the policy table decides the permission
// the entry point names. API routes (lib/platform/http/handler.ts), dashboard actions and data reads
// (server/dashboard.ts reads the session and calls this), the buyer's sandbox buttons and the
// checkout pick all come through here, so a rule changes in one place (lib/platform/auth/policy.ts).
// Nothing here knows Next or Auth.js: the app layer reads cookies and hands over plain values.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { authenticate, type AuthContext } from "@/lib/platform/auth/authenticate";
import { authorize, type Permission } from "@/lib/platform/auth/policy";
import type { BeforeLookup } from "@/lib/platform/auth/principal";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";
import type { Environment } from "@/lib/generated/prisma/enums";

export type Credential =
  /** `Authorization: Bearer <sk_*|pk_*|access token>` of an API request. */
  | { kind: "api"; authorization: string | null; host: string | null; shop?: "required" | "optional"; beforeLookup?: BeforeLookup }
  /**
   * A dashboard session: the signed-in user's id (null when signed out), the user's session
   * version it was signed in under, whether its second factor was given, and the chosen environment.
   */
  | { kind: "dashboard"; userId: string | null | undefined; sessionVersion: number; secondFactor: boolean; environment: Environment }
  /** The buyer's sandbox payment page: the transaction id in its URL. */
  | { kind: "sandboxPayment"; transactionId: string }
  /** A checkout session the buyer holds the token of (loaded by the caller, which claims it). */
  | { kind: "checkoutSession"; session: { id: string; merchantId: string; shopId: string; environment: Environment } };

const MERCHANT = { id: true, name: true, email: true, industry: true, tier: true, trustScore: true, status: true, timeZone: true } as const;
const SHOP = { id: true, name: true, status: true } as const;

export async function gate(credential: Credential, permission: Permission): Promise<AuthContext> {
  switch (credential.kind) {
    case "api":
      // The key path keeps its contract order (host, suspension, key kind, environment, shop).
      return authenticate(credential.authorization, credential.host, { permission, shop: credential.shop, beforeLookup: credential.beforeLookup });
    case "dashboard": {
      const ctx = await dashboardContext(credential);
      authorize(ctx, permission);
      return ctx;
    }
    case "sandboxPayment": {
      const t = await db().transaction.findUnique({ where: { id: credential.transactionId }, select: { merchantId: true, shopId: true, environment: true } });
      const notFound = () => new AppError("transaction_not_found", `No transaction ${credential.transactionId}.`);
      if (!t) throw notFound();
      const ctx = await buyerContext(t, `payment:${credential.transactionId}`, notFound);
      authorize(ctx, permission);
      return ctx;
    }
    case "checkoutSession": {
      const s = credential.session;
      const notFound = () => new AppError("checkout_session_not_found", "No checkout session with this token, or it has expired (sessions last 24 hours). Create a new one.");
      const ctx = await buyerContext(s, `checkout:${s.id}`, notFound);
      authorize(ctx, permission);
      return ctx;
    }
  }
}

/** A buyer acts for the merchant and shop of what they hold, as its secret key would (scoping). */
async function buyerContext(held: { merchantId: string; shopId: string; environment: Environment }, holder: string, notFound: () => AppError): Promise<AuthContext> {
  const shop = await db().shop.findUnique({ where: { id: held.shopId }, select: { ...SHOP, merchant: { select: MERCHANT } } });
  if (!shop || shop.merchant.id !== held.merchantId) throw notFound();
  if (shop.merchant.status === "suspended") throw new AppError("merchant_suspended", "This merchant cannot take payments right now.");
  if (shop.status === "suspended") throw new AppError("shop_suspended", "This shop cannot take payments right now.");
  const { merchant, ...rest } = shop;
  return { merchant, shop: rest, environment: held.environment, keyKind: "secret", keyPairId: holder, keyId: holder.startsWith("checkout:") ? "checkout_session" : "sandbox_page", via: "checkout_session", actor: { kind: "buyer" } };
}

/**
 * Merchant-wide (no shop): the dashboard sees every shop. A removed user, an inactive merchant or
 * a session signed in under an older version of the user (two-factor, password or role changed
 * since) is signed out. Two-factor is a property of the session: where the role must have it,
 * only a session whose second factor was given at sign-in (or at enrolment) gets past enrolment.
 */
async function dashboardContext(credential: Extract<Credential, { kind: "dashboard" }>): Promise<AuthContext> {
  const { userId, environment } = credential;
  const user = userId
    ? await db().dashboardUser.findUnique({ where: { id: userId }, select: { id: true, email: true, role: true, sessionVersion: true, totpEnabledAt: true, merchant: { select: MERCHANT } } })
    : null;
  if (!user || user.merchant.status !== "active" || user.sessionVersion !== credential.sessionVersion) throw new AppError("missing_credentials", "Your session has ended. Sign in again.");
  const required = twoFactorRequired(user.role);
  // A password-only session of a user who has two-factor on (a session from before sessions
  // carried their second factor): nothing to enrol in, so it ends; signing in asks for the code.
  if (required && !credential.secondFactor && user.totpEnabledAt !== null) throw new AppError("missing_credentials", "Your session has ended. Sign in again with your code.");
  return {
    merchant: user.merchant,
    shop: null,
    environment,
    keyKind: "secret",
    keyPairId: `dashboard:${user.id}`,
    keyId: `dashboard:${user.email}`,
    via: "dashboard",
    actor: { kind: "user", userId: user.id, email: user.email, role: user.role, twoFactorPending: required && !credential.secondFactor },
  };
}

/**
 * A merchant-wide context narrowed to one of the merchant's shops, for use cases that need a shop.
 * `shopId` omitted: the merchant's first active shop.
 */
export async function withShopOf(ctx: AuthContext, shopId?: string): Promise<AuthContext> {
  const shop = await db().shop.findFirst({
    where: { merchantId: ctx.merchant.id, status: "active", ...(shopId ? { id: shopId } : {}) },
    orderBy: { createdAt: "asc" },
    select: SHOP,
  });
  if (!shop) throw new AppError("shop_not_found", shopId ? `No shop ${shopId}.` : "The merchant has no active shop.", { param: "shopId" });
  return { ...ctx, shop };
}
