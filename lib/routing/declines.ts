// Decline classification (decisions.md "Declines and routing"): a provider's answer (its code,
// or a pattern of its message) becomes one unified decline code and a decision for the cascade:
//   stop              hard: the buyer or issuer said no; another provider would hear the same
//   retry_same_later  no cascade now; the buyer may retry later
//   retry_next        soft: ours or the provider's problem; the next provider is tried
// The table lives in the database (decline_rules, seeded by the migration, edited with the
// operator CLI) and is cached per process with a short TTL, dropped on change by NOTIFY.
// Anything unmapped is soft (`retry_next`) and counted in /metrics by provider and raw code, so
// the table can grow from what providers really answer.
import { db } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { metrics } from "@/lib/platform/metrics/registry";
import { onInvalidated } from "@/lib/platform/cache/invalidation";

export const DECISIONS = ["retry_next", "stop", "retry_same_later"] as const;
export type Decision = (typeof DECISIONS)[number];

/** The unified codes and the decision each carries when a row does not say otherwise. */
export const DECLINE_CODES = {
  insufficient_funds: "stop",
  expired_card: "stop",
  do_not_honor: "stop",
  card_blocked: "stop",
  suspected_fraud: "stop",
  invalid_document: "stop",
  invalid_account: "stop",
  buyer_cancelled: "stop",
  limit_exceeded: "retry_same_later",
  issuer_unavailable: "retry_same_later",
  provider_timeout: "retry_next",
  provider_error: "retry_next",
  provider_unavailable: "retry_next",
  provider_rate_limited: "retry_next",
  method_unsupported_by_provider: "retry_next",
  amount_out_of_provider_range: "retry_next",
} as const satisfies Record<string, Decision>;
export type DeclineCode = keyof typeof DECLINE_CODES | typeof UNMAPPED_DECLINE;

/** The unified code of a decline no row maps (soft, and counted). */
export const UNMAPPED_DECLINE = "unmapped_decline";

export type DeclineRuleRow = { provider: string; matchKind: string; match: string; declineCode: string; decision: string; priority: number };
export type Classification = { declineCode: string; decision: Decision; mapped: boolean };

type Compiled = { provider: string; kind: "code" | "pattern"; code: string; re: RegExp | null; declineCode: string; decision: Decision; priority: number };

/** Rows in the order they are tried: the provider's own before `*`, codes before patterns, then priority. */
export function compileRules(rows: DeclineRuleRow[]): Compiled[] {
  const out: Compiled[] = [];
  for (const r of rows) {
    const decision = (DECISIONS as readonly string[]).includes(r.decision) ? (r.decision as Decision) : "retry_next";
    let re: RegExp | null = null;
    if (r.matchKind === "pattern") {
      try {
        re = new RegExp(r.match, "i");
      } catch {
        continue; // a bad pattern is refused by the CLI; one that slipped in matches nothing
      }
    }
    out.push({ provider: r.provider, kind: r.matchKind === "pattern" ? "pattern" : "code", code: r.match.toLowerCase(), re, declineCode: r.declineCode, decision, priority: r.priority });
  }
  const rank = (c: Compiled) => (c.provider === "*" ? 2 : 0) + (c.kind === "pattern" ? 1 : 0);
  return out.sort((a, b) => rank(a) - rank(b) || a.priority - b.priority);
}

/**
 * A failed attempt's classification. `reason` is the provider's code (or our own for a transport
 * failure: timeout, http_503…); `message` its free text, used only to match patterns.
 */
export function classifyWith(rules: Compiled[], provider: string, reason: string, message?: string | null): Classification {
  const code = reason.toLowerCase();
  for (const r of rules) {
    if (r.provider !== "*" && r.provider !== provider) continue;
    const hit = r.kind === "code" ? r.code === code : r.re!.test(reason) || (!!message && r.re!.test(message));
    if (hit) return { declineCode: r.declineCode, decision: r.decision, mapped: true };
  }
  return { declineCode: UNMAPPED_DECLINE, decision: "retry_next", mapped: false };
}

const TTL_MS = 30_000;
const cache = singleton("decline-rules", () => ({ rules: null as Compiled[] | null, at: 0, listening: false }));

export async function declineRules(): Promise<Compiled[]> {
  if (!cache.listening) {
    cache.listening = true;
    onInvalidated("decline_rules", () => (cache.rules = null));
  }
  if (cache.rules && Date.now() - cache.at < TTL_MS) return cache.rules;
  const rows = await db().declineRule.findMany({ select: { provider: true, matchKind: true, match: true, declineCode: true, decision: true, priority: true } });
  cache.rules = compileRules(rows);
  cache.at = Date.now();
  return cache.rules;
}

/** Classifies with the current table, counting unmapped answers by provider and raw code. */
export async function classifyDecline(provider: string, reason: string, message?: string | null): Promise<Classification> {
  const c = classifyWith(await declineRules(), provider, reason, message);
  if (!c.mapped) metrics().declinesUnmapped.inc({ provider, code: reason.slice(0, 64) });
  return c;
}

/** The contract's error code of a cascade that stopped on a decline (decisions.md: 402). */
export function errorCodeFor(declineCode: string): "insufficient_funds" | "expired_card" | "card_declined" {
  return declineCode === "insufficient_funds" ? "insufficient_funds" : declineCode === "expired_card" ? "expired_card" : "card_declined";
}
