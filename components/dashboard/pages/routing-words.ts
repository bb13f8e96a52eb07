// The Routing page's words for strategies, routing reasons and a rule's conditions (the API's
// names stay in the JSON view and in tooltips).
import type { LoaderData } from "@/server/dashboard-loaders";
import { providerName } from "@/lib/providers/names";

type Routing = LoaderData<"routing">;
export type Rule = Routing["rules"][number];
export type Choice = Routing["choices"][number];

export const STRATEGY_WORDS: Record<string, string> = { priority: "In this order", split: "Split by share", success_rate: "Best approval" };
export const OBJECTIVE_WORDS: Record<string, string> = { approval: "Approvals", net_revenue: "Net revenue (approvals minus provider fees)" };
export const OBJECTIVE_HINTS: Record<string, string> = {
  approval: "The provider most likely to approve goes first, whatever it costs.",
  net_revenue: "What a payment is expected to leave once the provider is paid: a slightly better provider that costs much more loses, and of providers that approve alike the cheapest goes first.",
};
export const STRATEGY_HINTS: Record<string, string> = {
  priority: "The first provider takes the payment; the next ones are tried if it fails.",
  split: "Each payment's first provider is drawn by share: 70 and 30 send about 7 in 10 to the first.",
  success_rate: "The provider with the best recent approval goes first; a small share goes to another to keep learning.",
};
export const REASON_WORDS: Record<string, string> = { rule: "your rule's order", split: "drawn by share", success_rate: "best approval so far", exploration: "exploration (keeps learning)", fallback: "other providers (platform order)" };

const regions = typeof Intl !== "undefined" && "DisplayNames" in Intl ? new Intl.DisplayNames(["en"], { type: "region" }) : null;
export const countryName = (iso2: string) => regions?.of(iso2) ?? iso2;

export function railName(choices: Choice[], id: string): string {
  return choices.find((c) => c.paymentMethodId === id)?.name ?? id;
}

export function conditions(r: Rule, choices: Choice[]): string {
  const w = r.when;
  const parts: string[] = [];
  if (w?.minAmountUsd !== undefined) parts.push(`from ${w.minAmountUsd} USD`);
  if (w?.maxAmountUsd !== undefined) parts.push(`below ${w.maxAmountUsd} USD`);
  if (w?.countries) parts.push(`from ${w.countries.map((c) => countryName(choices.find((x) => x.countryIso3 === c.toUpperCase())?.countryIso2 ?? c)).join(", ")}`);
  if (w?.currencies) parts.push(`asked in ${w.currencies.join(", ")}`);
  if (w?.documentTypes) parts.push(`document ${w.documentTypes.join(", ")}`);
  return parts.length ? parts.join("; ") : "every payment";
}

export function providersText(r: Rule): string {
  return r.providers.map((p) => (p.weight !== undefined && r.strategy === "split" ? `${providerName(p.provider)} (${p.weight})` : providerName(p.provider))).join(", ");
}
