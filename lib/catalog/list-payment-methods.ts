// GET /payment-methods: the rails a shop can charge in the credential's environment.
import { z } from "zod";
import { db } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { onInvalidated } from "@/lib/platform/cache/invalidation";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { providerServesRail } from "@/lib/providers/registry";
import { splitsInstallments } from "@/lib/providers/installments";
import { PRODUCTION_RAILS, SANDBOX_RAILS, railLimits, toIso3, type Rail } from "@/lib/rails/rails";
import type { listPaymentMethodsQuery, paymentMethodEntry } from "@/lib/catalog/schema";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { Environment } from "@/lib/generated/prisma/enums";

type Entry = z.infer<typeof paymentMethodEntry>;

export function railIconPath(rail: Rail): string {
  return `/icons/rails/${rail.icon}.svg`;
}

export function railIconUrl(rail: Rail): string {
  return `${config().APP_URL}${railIconPath(rail)}`;
}

/** Which providers of the rail can take a charge now, in cascade order; `installments` (who pays the plan's financing): only those that split it. */
export function routableProviders(rail: Rail, environment: Environment, installments: "merchant" | "buyer" | null = null): string[] {
  if (environment === "sandbox") return ["sandbox"];
  return rail.providers.filter((p) => providerServesRail(p, rail.paymentMethodId) && (!installments || splitsInstallments(p, rail.countryIso3, installments)));
}

import { railExpiry } from "@/lib/catalog/expiry";
import { withInstallmentOffers } from "@/lib/catalog/installment-offers";
import { rememberBounded } from "@/lib/platform/bounded";

export function toCatalogEntry(rail: Rail, environment: Environment, enabled: boolean): Entry {
  const providers = routableProviders(rail, environment);
  const limits = railLimits(rail, 0n);
  return {
    paymentMethodId: rail.paymentMethodId,
    method: rail.method as Entry["method"],
    methodLabel: rail.methodLabel,
    name: rail.name,
    country: rail.countryIso2,
    countryIso3: rail.countryIso3,
    channel: rail.channel,
    imageUrl: railIconPath(rail),
    iconUrl: railIconUrl(rail),
    currencies: [rail.currency],
    currencyLimits: [{ currency: rail.currency, min: toMajor(limits.minLocal, rail.currency), max: toMajor(limits.maxLocal, rail.currency) }],
    minTxUsd: rail.minTxUsd ? toMajor(limits.minUsd, "USD") : null,
    maxTxUsd: rail.maxTxUsd ? toMajor(limits.maxUsd, "USD") : null,
    fee: { percent: rail.providerFeeBp / 100, flat: toMajor(BigInt(rail.networkFeeUsdMinor), "USD"), currency: "USD" },
    expiry: railExpiry(rail),
    enabled,
    online: true,
    routable: enabled && providers.length > 0,
    unroutableReason: !enabled ? "method_not_enabled_for_shop" : providers.length === 0 ? "no_provider_configured" : null,
  };
}

// A shop's disabled rails, read on every charge: cached 5 s, dropped on change (shop:methods).
const DISABLED_TTL_MS = 5_000;
const disabledCache = singleton("shop-disabled-methods", () => {
  const map = new Map<string, { at: number; ids: Set<string> }>();
  onInvalidated("shop_methods", () => map.clear());
  return map;
});

async function disabledMethods(shopId: string): Promise<Set<string>> {
  const hit = disabledCache.get(shopId);
  if (hit && Date.now() - hit.at < DISABLED_TTL_MS) return hit.ids;
  const ids = new Set((await db().shopPaymentMethod.findMany({ where: { shopId, enabled: false }, select: { paymentMethodId: true } })).map((r) => r.paymentMethodId));
  rememberBounded(disabledCache, shopId, { at: Date.now(), ids }, 50_000);
  return ids;
}

/** Rails of the environment with the shop's enablement. Sandbox lists its test rails first. */
export async function shopRails(shopId: string, environment: Environment): Promise<Array<{ rail: Rail; enabled: boolean }>> {
  const disabled = await disabledMethods(shopId);
  const live = PRODUCTION_RAILS.filter((r) => !r.retired);
  const rails = environment === "sandbox" ? [...SANDBOX_RAILS, ...live] : live;
  return rails.map((rail) => ({ rail, enabled: rail.sandbox ? true : !disabled.has(rail.paymentMethodId) }));
}

export async function listPaymentMethods(auth: AuthContext, query: z.infer<typeof listPaymentMethodsQuery>) {
  const shop = auth.shop!;
  let country: string | null = null;
  if (query.country) {
    country = toIso3(query.country);
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  // Disabled rails are listed too (enabled: false, routable: false) so a shop sees what it could enable.
  const all = await shopRails(shop.id, auth.environment);
  const methods = all
    .filter(({ rail }) => (!country || rail.countryIso3 === country) && (!query.channel || rail.channel === query.channel) && (!query.method || rail.method === query.method))
    .map(({ rail, enabled }) => toCatalogEntry(rail, auth.environment, enabled));
  await withInstallmentOffers(shop.id, methods, query.amount);
  return {
    shop: { id: shop.id, name: shop.name },
    environment: auth.environment,
    filters: { country, channel: query.channel ?? null, method: query.method ?? null },
    count: methods.length,
    totalAvailable: all.filter((r) => r.enabled).length,
    routableCount: methods.filter((m) => m.routable).length,
    methods,
  };
}
