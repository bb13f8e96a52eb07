// Which providers a rule may name on a rail, and the choices the dashboard's rule form offers.
// Production: the rail's providers in the catalog (the configured ones are offered). The sandbox:
// the test provider, plus the simulated providers that serve the same method in the same country
// in production (pagosur, andespay, rapidpay: lib/providers/registry.ts). Test payments are still
// taken by the test provider (its page and buttons); a sandbox rule naming simulated providers is
// seen at work in the rule trial (lib/routing/try-rules.ts), which routes nothing real.
import { PRODUCTION_RAILS, SANDBOX_RAILS, type Rail } from "@/lib/rails/rails";
import { providerServesRail, SIMULATED_PROVIDER_CODES } from "@/lib/providers/registry";
import { providerName } from "@/lib/providers/names";
import type { Environment } from "@/lib/generated/prisma/enums";

const SIMULATED: readonly string[] = SIMULATED_PROVIDER_CODES;

/** The simulated providers serving a sandbox rail's production twin (same method, country, channel); all of them when it has none. */
function simulatedTwins(rail: Rail): string[] {
  const twin = PRODUCTION_RAILS.find((p) => p.method === rail.method && p.countryIso3 === rail.countryIso3 && p.channel === rail.channel);
  const served = twin ? twin.providers.filter((p) => SIMULATED.includes(p)) : [];
  return served.length ? served : [...SIMULATED];
}

/** Every provider a rule on this rail may name (what PUT /me/routing accepts). */
export function ruleProviders(rail: Rail): string[] {
  return rail.sandbox ? ["sandbox", ...simulatedTwins(rail)] : rail.providers;
}

export type RailChoice = { paymentMethodId: string; name: string; countryIso2: string; countryIso3: string; providers: Array<{ code: string; name: string }> };

/**
 * The rule form's choices in an environment: each rail with the providers to offer, in display
 * names. Production offers the configured providers (the ones that can take a payment).
 */
export function routingChoices(environment: Environment): RailChoice[] {
  const rails = environment === "sandbox" ? SANDBOX_RAILS : PRODUCTION_RAILS.filter((r) => !r.retired);
  return rails.map((rail) => {
    const codes = environment === "sandbox" ? ruleProviders(rail) : rail.providers.filter((p) => providerServesRail(p, rail.paymentMethodId));
    return { paymentMethodId: rail.paymentMethodId, name: rail.name, countryIso2: rail.countryIso2, countryIso3: rail.countryIso3, providers: codes.map((code) => ({ code, name: providerName(code) })) };
  });
}
