// The methods a checkout offers: the shop's enabled, routable rails of the session's country
// (all countries without one), each with the amount the buyer would pay in its currency (the
// price rule, lib/money/price.ts) and whether that amount fits the rail's limits. The sandbox
// offers its test rails only (the production rails it also routes stay reachable through the
// API), unless the country has none: then its production rails, rather than an empty page.
import { MAX_HEADLINE_USD_MINOR, buyerLocal } from "@/lib/payments/create/price";
import { railLimits, type Rail } from "@/lib/rails/rails";
import { routableProviders, shopRails } from "@/lib/catalog/list-payment-methods";
import { rateFor } from "@/lib/money/rates";
import type { Environment } from "@/lib/generated/prisma/enums";

export type OfferedMethod = { rail: Rail; localMinor: bigint | null; fits: boolean };

/** `asked`: the session's USD credit and what the merchant asked, in its currency (the buyer's price, decisions.md Money). */
export async function offeredMethods(shopId: string, environment: Environment, country: string | null, asked: { usd: bigint; currency: string; inputMinor: bigint }): Promise<OfferedMethod[]> {
  const usd = asked.usd;
  let rails = (await shopRails(shopId, environment)).filter(({ rail, enabled }) => enabled && (!country || rail.countryIso3 === country) && routableProviders(rail, environment).length > 0);
  if (environment === "sandbox" && rails.some(({ rail }) => rail.sandbox)) rails = rails.filter(({ rail }) => rail.sandbox);
  const rates = new Map<string, string | null>();
  const out: OfferedMethod[] = [];
  for (const { rail } of rails) {
    if (!rates.has(rail.currency)) rates.set(rail.currency, await rateFor(environment, rail.currency));
    const rate = rates.get(rail.currency);
    const localMinor = rate ? await buyerLocal(environment, asked, rail.currency, rate).catch(() => null) : null;
    const l = railLimits(rail, MAX_HEADLINE_USD_MINOR);
    const fits = localMinor !== null && localMinor >= l.minLocal && localMinor <= l.maxLocal && usd >= l.minUsd && usd <= l.maxUsd;
    out.push({ rail, localMinor, fits });
  }
  return out;
}
