// A shop's routing rules: read (cached, dropped across processes on change) and replaced (a new
// version each time). Scoped by merchant, shop and environment here, never by the caller.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { singleton } from "@/lib/platform/singleton";
import { notifyInvalidated, onInvalidated } from "@/lib/platform/cache/invalidation";
import { PRODUCTION_RAILS, SANDBOX_RAILS, railById } from "@/lib/rails/rails";
import { compileRoutingRules, documentTypeOf, selectRoute, type CompiledRule } from "@/lib/routing/select";
import { toMinor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { declineCodeList, putRoutingBody, type PutRoutingInput, type RoutingRule } from "@/lib/routing/schema";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { OwnerWith } from "@/lib/platform/scope";
import { rememberBounded } from "@/lib/platform/bounded";
import { providerCost, providerServesRail } from "@/lib/providers/registry";
import { providerName } from "@/lib/providers/names";
import { ruleProviders } from "@/lib/routing/providers";

export type ShopRouting = { version: number; rules: RoutingRule[]; compiled: CompiledRule[]; updatedAt: Date | null };

const TTL_MS = 30_000;
const cache = singleton("routing-rules", () => ({ byShop: new Map<string, { at: number; value: ShopRouting }>(), listening: false }));

/** The rules in force for a shop (version 0 and no rules: the platform default). */
export async function currentRouting(shopId: string, environment: Environment): Promise<ShopRouting> {
  if (!cache.listening) {
    cache.listening = true;
    onInvalidated("routing_rules", () => cache.byShop.clear());
  }
  const key = `${shopId}|${environment}`;
  const hit = cache.byShop.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const row = await db().routingConfig.findFirst({ where: { shopId, environment }, orderBy: { version: "desc" }, select: { version: true, rules: true, createdAt: true } });
  const rules = row ? putRoutingBody.parse({ rules: row.rules }).rules : [];
  const value = { version: row?.version ?? 0, rules, compiled: compileRoutingRules(rules), updatedAt: row?.createdAt ?? null };
  rememberBounded(cache.byShop, key, { at: Date.now(), value }, 10_000);
  return value;
}

async function shopFor(scope: OwnerWith<"actor">, shopId: string | undefined): Promise<string> {
  if (scope.shop) {
    if (shopId && shopId !== scope.shop.id) throw new AppError("forbidden", "`shopId` is not the shop of this credential.", { param: "shopId" });
    return scope.shop.id;
  }
  if (!shopId) throw new AppError("shop_required", "This credential covers the whole merchant: send `shopId` to say which shop's routing.", { param: "shopId" });
  const shop = await db().shop.findFirst({ where: { id: shopId, merchantId: scope.merchant.id }, select: { id: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${shopId} for this merchant.`, { param: "shopId" });
  return shop.id;
}

function present(shopId: string, environment: Environment, r: ShopRouting) {
  return {
    shopId,
    environment,
    version: r.version,
    updatedAt: r.updatedAt?.toISOString() ?? null,
    rules: r.rules,
    // The order a payment without a matching rule tries: the configured providers of each rail.
    platformDefault: (environment === "sandbox" ? SANDBOX_RAILS : PRODUCTION_RAILS).map((x) => ({ paymentMethodId: x.paymentMethodId, providers: environment === "sandbox" ? x.providers : x.providers.filter((p) => providerServesRail(p, x.paymentMethodId)) })),
    declineCodes: declineCodeList(),
  };
}

export async function getRouting(scope: OwnerWith<"actor">, query: { shopId?: string }) {
  const shopId = await shopFor(scope, query.shopId);
  return present(shopId, scope.environment, await currentRouting(shopId, scope.environment));
}

/** Checks what zod cannot: rails exist, providers serve them, a split has weights. */
export function checkRules(rules: RoutingRule[]): void {
  rules.forEach((r, i) => {
    const rail = railById(r.paymentMethodId);
    if (!rail) throw new AppError("invalid_request", `Rule ${i + 1}: no payment method ${r.paymentMethodId}.`, { param: `rules[${i}].paymentMethodId` });
    const seen = new Set<string>();
    const serving = ruleProviders(rail);
    r.providers.forEach((p, j) => {
      if (!serving.includes(p.provider)) throw new AppError("invalid_request", `Rule ${i + 1}: ${providerName(p.provider)} does not serve ${rail.name}; it is served by ${serving.map(providerName).join(", ")}.`, { param: `rules[${i}].providers[${j}].provider` });
      if (seen.has(p.provider)) throw new AppError("invalid_request", `Rule ${i + 1}: ${providerName(p.provider)} is listed twice.`, { param: `rules[${i}].providers[${j}].provider` });
      seen.add(p.provider);
    });
    if (r.objective && r.strategy !== "success_rate") throw new AppError("invalid_request", `Rule ${i + 1}: an objective chooses what success-rate routing maximises; a ${r.strategy} rule has none.`, { param: `rules[${i}].objective` });
    if (r.strategy === "split" && !r.providers.some((p) => (p.weight ?? 0) > 0)) throw new AppError("invalid_request", `Rule ${i + 1}: a split needs a weight above 0 on at least one provider.`, { param: `rules[${i}].providers` });
    const w = r.when;
    // Thresholds are amounts: at most USD's decimals, through the one amount parser (400
    // amount_invalid, as everywhere); 0 is a threshold too ("from nothing"). Refused here, not in
    // the schema, because stored rules are read back through that schema on every payment.
    for (const field of ["minAmountUsd", "maxAmountUsd"] as const) {
      const v = w?.[field];
      if (v !== undefined && v !== 0) parseAmount(v, "USD", `rules[${i}].when.${field}`);
    }
    if (w?.minAmountUsd !== undefined && w.maxAmountUsd !== undefined && w.minAmountUsd >= w.maxAmountUsd) throw new AppError("invalid_request", `Rule ${i + 1}: the minimum amount must be below the maximum.`, { param: `rules[${i}].when.maxAmountUsd` });
  });
}

export async function putRouting(scope: OwnerWith<"actor">, query: { shopId?: string }, input: PutRoutingInput) {
  const shopId = await shopFor(scope, query.shopId);
  checkRules(input.rules);
  const createdBy = scope.actor.kind === "user" ? scope.actor.email : scope.actor.kind === "key" ? "api_key" : null;
  // A concurrent PUT takes the same version and loses on the unique key: retried once with the next.
  for (let attempt = 0; ; attempt++) {
    const last = await db().routingConfig.findFirst({ where: { shopId, environment: scope.environment }, orderBy: { version: "desc" }, select: { version: true } });
    try {
      const row = await db().routingConfig.create({ data: { id: newId("routingConfig"), merchantId: scope.merchant.id, shopId, environment: scope.environment, version: (last?.version ?? 0) + 1, rules: input.rules as object[], createdBy } });
      await notifyInvalidated("routing_rules");
      return present(shopId, scope.environment, { version: row.version, rules: input.rules, compiled: compileRoutingRules(input.rules), updatedAt: row.createdAt });
    } catch (err) {
      if (attempt < 3 && (err as { code?: string }).code === "P2002") continue;
      throw err;
    }
  }
}

/**
 * "This payment would go to …": the plan the cascade would follow now for a payment of this
 * shape (production's configured providers; scores and circuits of the shared window).
 */
export async function previewRouting(scope: OwnerWith<"actor">, input: { paymentMethodId: string; amountUsd: number; currency?: string; documentId?: string }) {
  const rail = railById(input.paymentMethodId);
  if (!rail) throw new AppError("invalid_request", `No payment method ${input.paymentMethodId}.`, { param: "paymentMethodId" });
  const amount = toMinor(input.amountUsd, "USD");
  if (amount === null || amount <= 0n) throw new AppError("amount_invalid", "The amount must be a positive number of USD with at most 2 decimals.", { param: "amountUsd" });
  const shopId = await shopFor(scope, undefined);
  const routing = await currentRouting(shopId, scope.environment);
  const { routableProviders } = await import("@/lib/catalog/list-payment-methods");
  const { routingSnapshot, amountBand } = await import("@/lib/routing/stats");
  const snap = await routingSnapshot();
  const facts = { paymentMethodId: rail.paymentMethodId, amountUsdMinor: amount, country: rail.countryIso3, currency: (input.currency || "USD").toUpperCase(), documentType: documentTypeOf(input.documentId, rail.countryIso3) };
  const band = amountBand(amount);
  const routable = scope.environment === "production" ? routableProviders(rail, "production") : ruleProviders(rail);
  const plan = selectRoute(routing.compiled, routing.version, facts, routable, { rng: Math.random, score: (p) => snap.score(p, rail.paymentMethodId, band), circuit: (p) => snap.circuit(p, rail.paymentMethodId), cost: (p) => providerCost(p, rail.paymentMethodId) });
  const rule = plan.rule === null ? null : routing.rules[plan.rule]!;
  return {
    version: routing.version,
    rule: plan.rule === null ? null : { index: plan.rule, name: rule?.name ?? null, strategy: rule!.strategy },
    steps: plan.steps,
    skipped: plan.skipped,
    railName: rail.name,
  };
}
