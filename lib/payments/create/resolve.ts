// POST /payments, stages 1-2 (lib/payments/create-payment.ts): the request's own checks, then the
// shop that charges and the rail it charges on.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toIso3 } from "@/lib/rails/rails";
import { shopRails } from "@/lib/catalog/list-payment-methods";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";

/** Stage 1, validate: what the request alone can be refused for before anything is read. */
export function validateRequest(auth: AuthContext, behaviour: SandboxBehaviour | undefined): void {
  if (behaviour && auth.environment !== "sandbox") {
    throw new AppError("production_key_refused", "Sandbox-Provider-Behaviour scripts the sandbox's simulated providers; production charges go to real providers.", { param: "Sandbox-Provider-Behaviour" });
  }
}

/**
 * The shop a charge is for: the credential's, or, for a merchant-wide credential, the `shopId`
 * in the body (which must be one of the merchant's shops).
 */
export async function resolveShop(auth: AuthContext, input: CreatePaymentInput): Promise<{ id: string; name: string }> {
  if (input.merchantId && input.merchantId !== auth.merchant.id) throw new AppError("forbidden", "`merchantId` is not the merchant of this credential.", { param: "merchantId" });
  if (auth.shop) {
    if (input.shopId && input.shopId !== auth.shop.id) throw new AppError("forbidden", "`shopId` is not the shop of this credential.", { param: "shopId" });
    return auth.shop;
  }
  if (!input.shopId) throw new AppError("shop_required", "This credential covers the whole merchant: send `shopId` to say which shop charges.", { param: "shopId" });
  const shop = await db().shop.findFirst({ where: { id: input.shopId, merchantId: auth.merchant.id }, select: { id: true, name: true, status: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${input.shopId} for this merchant.`, { param: "shopId" });
  if (shop.status === "suspended") throw new AppError("shop_suspended", "The shop is suspended. Contact support.");
  return shop;
}

/**
 * Stage 2, resolve shop and rail: the rail must be routable and enabled for the shop, and serve
 * the country asked (normalised to ISO-3; inferred from the rail when absent).
 */
export async function resolveShopAndRail(auth: AuthContext, input: CreatePaymentInput) {
  const shop = await resolveShop(auth, input);
  let country: string | null = null;
  if (input.country) {
    country = toIso3(input.country);
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  const { rail, enabled } = await resolveRail(auth, shop.id, input, country);
  if (!enabled) throw new AppError("method_not_enabled_for_shop", `Payment method ${rail.paymentMethodId} is not enabled for this shop.`, { param: "paymentMethodId" });
  if (country && country !== rail.countryIso3 && !rail.sandbox) {
    throw new AppError("unsupported_country", `${rail.name} serves ${rail.countryIso3}, not ${country}.`, { param: "country" });
  }
  return { shop, rail, enabled };
}

async function resolveRail(auth: AuthContext, shopId: string, input: CreatePaymentInput, country: string | null) {
  const rails = await shopRails(shopId, auth.environment);
  if (input.paymentMethodId) {
    const entry = rails.find((r) => r.rail.paymentMethodId === input.paymentMethodId);
    if (!entry) {
      throw new AppError("cascade_exhausted", `No provider routes payment method ${input.paymentMethodId} for this shop; list GET /payment-methods for valid ids.`, {
        param: "paymentMethodId",
        details: { reason: "no_provider_for_method_region", attempts: [], paymentMethodEnabledForShop: false },
      });
    }
    return entry;
  }
  if (!input.paymentMethod) throw new AppError("missing_field", "Send `paymentMethodId` (from GET /payment-methods).", { param: "paymentMethodId" });
  const wanted = country ?? "USA";
  const entry = rails.find((r) => r.enabled && r.rail.method === input.paymentMethod && r.rail.countryIso3 === wanted) ?? rails.find((r) => r.rail.method === input.paymentMethod && r.rail.countryIso3 === wanted);
  if (!entry) {
    throw new AppError("cascade_exhausted", `No rail for method ${input.paymentMethod} in ${wanted}.`, {
      param: "paymentMethod",
      details: { reason: "no_provider_for_method_region", attempts: [], paymentMethodEnabledForShop: false },
    });
  }
  return entry;
}
