// The decline table's operator use cases (npm run decline:list / decline:set / decline:delete):
// each change commits, then every server drops its cached table (NOTIFY), so the next payment
// is classified by the new rows.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { notifyInvalidated } from "@/lib/platform/cache/invalidation";
import { DECISIONS, DECLINE_CODES, type Decision } from "@/lib/routing/declines";

export type DeclineRuleInput = { provider: string; code?: string; pattern?: string; declineCode: string; decision?: string; priority?: number };

function key(input: { provider: string; code?: string; pattern?: string }) {
  if (!!input.code === !!input.pattern) throw new Error("give exactly one of --code (the provider's code) or --pattern (a regular expression on its message)");
  if (!/^(\*|[a-z0-9_]{2,40})$/.test(input.provider)) throw new Error("--provider must be a provider code or *");
  if (input.pattern) {
    try {
      new RegExp(input.pattern, "i");
    } catch (err) {
      throw new Error(`--pattern is not a valid regular expression: ${(err as Error).message}`);
    }
  }
  return { provider: input.provider, matchKind: input.code ? "code" : "pattern", match: (input.code ?? input.pattern)! };
}

export async function listDeclineRules(provider?: string) {
  return db().declineRule.findMany({ where: provider ? { provider } : {}, orderBy: [{ provider: "asc" }, { matchKind: "asc" }, { priority: "asc" }, { match: "asc" }], select: { provider: true, matchKind: true, match: true, declineCode: true, decision: true, priority: true, source: true } });
}

export async function setDeclineRule(input: DeclineRuleInput) {
  const k = key(input);
  // Own keys only: `in` also finds what every object inherits (constructor, toString, __proto__).
  if (!Object.hasOwn(DECLINE_CODES, input.declineCode)) throw new Error(`--maps-to must be one of ${Object.keys(DECLINE_CODES).join(", ")}`);
  const decision = (input.decision ?? DECLINE_CODES[input.declineCode as keyof typeof DECLINE_CODES]) as Decision;
  if (!(DECISIONS as readonly string[]).includes(decision)) throw new Error(`--decision must be one of ${DECISIONS.join(", ")}`);
  const data = { declineCode: input.declineCode, decision, priority: input.priority ?? 100 };
  const row = await db().declineRule.upsert({ where: { provider_matchKind_match: k }, create: { id: newId("declineRule"), ...k, ...data }, update: data, select: { provider: true, matchKind: true, match: true, declineCode: true, decision: true, priority: true } });
  await notifyInvalidated("decline_rules");
  return row;
}

export async function deleteDeclineRule(input: { provider: string; code?: string; pattern?: string }) {
  const { count } = await db().declineRule.deleteMany({ where: key(input) });
  await notifyInvalidated("decline_rules");
  return { deleted: count };
}
