// The dashboard's rule form and the API's rules, both ways (pure; client components import it).
// A draft holds what the form's fields hold (text as typed), so a half-typed amount survives a
// re-render; `draftsToRules` turns drafts into the body PUT /me/routing takes, which the save
// action judges with the API's own schema and use case. What the form does not edit (currencies,
// document types) is kept as it was, so the form never drops a condition written as JSON.
import type { RoutingRule } from "@/lib/routing/schema";

export type Strategy = RoutingRule["strategy"];
export type ProviderDraft = { provider: string; weight: string };
export type RuleDraft = {
  name: string;
  paymentMethodId: string;
  /** "" for any country, else an ISO-3 code. */
  country: string;
  minAmountUsd: string;
  maxAmountUsd: string;
  strategy: Strategy;
  providers: ProviderDraft[];
  /** success_rate: what it maximises ("approval", the default, or "net_revenue"). */
  objective: NonNullable<RoutingRule["objective"]>;
  /** success_rate: the exploration share in percent, "" for the default. */
  explorationPercent: string;
  fallback: boolean;
  /** Conditions the form does not show, kept as they were. */
  kept: Pick<NonNullable<RoutingRule["when"]>, "currencies" | "documentTypes"> & { countries?: string[] };
};

/** A typed number, or the text itself when it is not one (the schema then names the field). */
function numberOf(text: string): number | string | undefined {
  const t = text.trim().replace(/,/g, "");
  if (!t) return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : text;
}

/** A share as a percent for the form: 0.05 -> "5" (rounded to a tenth of a percent, not money). */
export function percentText(share: number | undefined): string {
  return share === undefined ? "" : String(Math.round(share * 1000) / 10);
}

/** Percent text back to the share the API takes: "5" -> 0.05 (exact to a tenth of a percent). */
export function shareOf(text: string): number | string | undefined {
  const n = numberOf(text);
  return typeof n === "number" ? Math.round(n * 10) / 1000 : n;
}

export function ruleToDraft(r: RoutingRule): RuleDraft {
  const w = r.when ?? {};
  const oneCountry = w.countries?.length === 1 ? w.countries[0]!.toUpperCase() : "";
  return {
    name: r.name ?? "",
    paymentMethodId: r.paymentMethodId,
    country: oneCountry,
    minAmountUsd: w.minAmountUsd === undefined ? "" : String(w.minAmountUsd),
    maxAmountUsd: w.maxAmountUsd === undefined ? "" : String(w.maxAmountUsd),
    strategy: r.strategy ?? "priority",
    providers: r.providers.map((p) => ({ provider: p.provider, weight: p.weight === undefined ? "" : String(p.weight) })),
    objective: r.objective ?? "approval",
    explorationPercent: percentText(r.exploration),
    fallback: r.fallback !== false,
    kept: { ...(w.currencies ? { currencies: w.currencies } : {}), ...(w.documentTypes ? { documentTypes: w.documentTypes } : {}), ...(w.countries && w.countries.length > 1 ? { countries: w.countries } : {}) },
  };
}

/**
 * A draft as the API's rule. The result is what the API would be sent, judged by its schema after
 * this: a field typed as something else than a number reaches the schema as text and is refused
 * there, naming that field. Weights go only with a split, exploration only with best approval.
 */
export function draftToRule(d: RuleDraft): Record<string, unknown> {
  const when: Record<string, unknown> = { ...d.kept };
  if (d.country) when.countries = [d.country];
  const min = numberOf(d.minAmountUsd);
  const max = numberOf(d.maxAmountUsd);
  if (min !== undefined) when.minAmountUsd = min;
  if (max !== undefined) when.maxAmountUsd = max;
  const rule: Record<string, unknown> = {
    ...(d.name.trim() ? { name: d.name.trim() } : {}),
    paymentMethodId: d.paymentMethodId,
    ...(Object.keys(when).length ? { when } : {}),
    strategy: d.strategy,
    providers: d.providers.map((p) => {
      const weight = d.strategy === "split" ? numberOf(p.weight) : undefined;
      return weight === undefined ? { provider: p.provider } : { provider: p.provider, weight };
    }),
  };
  // Approval is the default: written only when net revenue is chosen, so a rule saved from the form reads as it did before objectives.
  if (d.strategy === "success_rate" && d.objective === "net_revenue") rule.objective = "net_revenue";
  const exploration = d.strategy === "success_rate" ? shareOf(d.explorationPercent) : undefined;
  if (exploration !== undefined) rule.exploration = exploration;
  if (!d.fallback) rule.fallback = false;
  return rule;
}

export const draftsToRules = (drafts: RuleDraft[]) => drafts.map(draftToRule);
export const rulesToDrafts = (rules: RoutingRule[]) => rules.map(ruleToDraft);

/** A new rule for a rail: its first provider, in this order. */
export function newDraft(paymentMethodId: string, firstProvider: string | undefined): RuleDraft {
  return { name: "", paymentMethodId, country: "", minAmountUsd: "", maxAmountUsd: "", strategy: "priority", providers: firstProvider ? [{ provider: firstProvider, weight: "" }] : [], objective: "approval", explorationPercent: "", fallback: true, kept: {} };
}

/** Moves item `from` to `to` (a copy). */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return [...items];
  const out = [...items];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item!);
  return out;
}

const FIELD_WORDS: Record<string, string> = {
  name: "name",
  paymentMethodId: "payment method",
  countries: "country",
  minAmountUsd: "amount from",
  maxAmountUsd: "amount below",
  strategy: "how providers are chosen",
  providers: "providers",
  provider: "provider",
  weight: "share",
  exploration: "exploration",
  objective: "what to maximise",
  fallback: "other providers",
};

/**
 * A schema issue as a shop owner reads it, for the field at `path` ("rules[0].when.minAmountUsd"):
 * "Rule 1, amount from: enter a number of USD from 0 to 100,000." The API keeps its own words.
 */
export function plainRuleIssue(path: string, issue: { code?: string; message: string; maximum?: unknown; minimum?: unknown }): string {
  const m = /^rules\[(\d+)\](?:\.when)?(?:\.providers\[(\d+)\])?\.?([A-Za-z]*)/.exec(path);
  if (!m) return issue.message;
  const rule = `Rule ${Number(m[1]) + 1}`;
  const where = m[2] !== undefined ? `${rule}, provider ${Number(m[2]) + 1}` : rule;
  const field = m[3] ?? "";
  const words = FIELD_WORDS[field] ?? field;
  const fix: Record<string, string> = {
    minAmountUsd: "enter an amount in USD from 0 to 100,000, like 500",
    maxAmountUsd: "enter an amount in USD from 0 to 100,000, like 500",
    weight: "enter a whole number from 0 to 1000",
    exploration: "enter a percent from 0 to 50",
    name: "use at most 80 characters",
    providers: "choose between 1 and 10 providers",
  };
  return `${where}, ${words}: ${fix[field] ?? issue.message.replace(/^Invalid input:\s*/i, "").toLowerCase()}.`;
}
