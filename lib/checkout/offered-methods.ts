// The methods a checkout offers: the shop's enabled, routable rails of the session's country
// (all countries without one), each with the amount the buyer would pay in its currency and
// whether that amount fits the rail's limits. Sandbox lists its test rails first.
import { MAX_HEADLINE_USD_MINOR } from "@/lib/payments/create-payment";
import { railLimits, type Rail } from "@/lib/catalog/rails";
import { routableProviders, shopRails } from "@/lib/catalog/list-payment-methods";
import { usdToLocal } from "@/lib/money/fx";
import { rateFor } from "@/lib/money/rates";
import type { Environment } from "@/lib/generated/prisma/enums";

export type OfferedMethod = { rail: Rail; localMinor: bigint | null; fits: boolean };

export async function offeredMethods(shopId: string, environment: Environment, country: string | null, usd: bigint): Promise<OfferedMethod[]> {
  const rails = (await shopRails(shopId, environment)).filter(({ rail, enabled }) => enabled && (!country || rail.countryIso3 === country) && routableProviders(rail, environment).length > 0);
  const rates = new Map<string, string | null>();
  const out: OfferedMethod[] = [];
  for (const { rail } of rails) {
    if (!rates.has(rail.currency)) rates.set(rail.currency, await rateFor(environment, rail.currency));
    const rate = rates.get(rail.currency);
    const localMinor = rate ? usdToLocal(usd, rate, rail.currency) : null;
    const l = railLimits(rail, MAX_HEADLINE_USD_MINOR);
    const fits = localMinor !== null && localMinor >= l.minLocal && localMinor <= l.maxLocal && usd >= l.minUsd && usd <= l.maxUsd;
    out.push({ rail, localMinor, fits });
  }
  return out;
}
