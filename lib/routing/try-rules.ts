// The rule trial (the Routing page in the sandbox, "Try these rules"): test payments of one shape
// routed by the rules being edited, with the routing decision payments use (selectRoute), to the
// simulated providers, each of which answers approved or declined by a fixed approval share. A
// declined attempt moves on to the next provider of the plan, as a soft decline does in the
// cascade. Best approval learns from the trial's own answers (it starts knowing nothing); circuits
// are not involved. Nothing is written: no payment, no attempt, no ledger posting, no statistic,
// and its permission (tryRouting) is the sandbox's alone, so it can never touch production.
import { AppError } from "@/lib/platform/errors";
import { railById } from "@/lib/rails/rails";
import { toMinor } from "@/lib/money/amount";
import { checkRules } from "@/lib/routing/rules";
import { ruleProviders } from "@/lib/routing/providers";
import { compileRoutingRules, selectRoute, type CompiledRule, type PaymentFacts, type Rng, type Score } from "@/lib/routing/select";
import type { RoutingReason, TryRoutingInput } from "@/lib/routing/schema";

/** How often each provider approves in a trial: the test provider always; the simulated ones differ, so best approval has something to find. */
export const TRIAL_APPROVAL: Record<string, number> = { sandbox: 1, pagosur: 0.9, andespay: 0.75, rapidpay: 0.6 };

export type TrialAttempt = { provider: string; reason: RoutingReason; outcome: "approved" | "declined" };
export type TrialPayment = { n: number; rule: number | null; attempts: TrialAttempt[]; paidBy: string | null };
export type TrialProvider = { provider: string; approvalShare: number; first: number; attempts: number; approved: number };

/** The trial itself, pure: `count` payments of `facts` through `rules` (seed `rng` for a repeatable one). */
export function runTrial(rules: CompiledRule[], facts: PaymentFacts, routable: string[], count: number, rng: Rng) {
  const tally = new Map<string, Score>();
  const byProvider = new Map<string, TrialProvider>(routable.map((p) => [p, { provider: p, approvalShare: TRIAL_APPROVAL[p] ?? 0, first: 0, attempts: 0, approved: 0 }]));
  const payments: TrialPayment[] = [];
  for (let n = 1; n <= count; n++) {
    const plan = selectRoute(rules, 0, facts, routable, { rng, score: (p) => tally.get(p) ?? { approved: 0, failed: 0 } });
    const attempts: TrialAttempt[] = [];
    let paidBy: string | null = null;
    for (const step of plan.steps) {
      const approved = rng() < (TRIAL_APPROVAL[step.provider] ?? 0);
      const score = tally.get(step.provider) ?? { approved: 0, failed: 0 };
      tally.set(step.provider, approved ? { ...score, approved: score.approved + 1 } : { ...score, failed: score.failed + 1 });
      const row = byProvider.get(step.provider)!;
      if (attempts.length === 0) row.first++;
      row.attempts++;
      if (approved) row.approved++;
      attempts.push({ provider: step.provider, reason: step.reason, outcome: approved ? "approved" : "declined" });
      if (approved) {
        paidBy = step.provider;
        break;
      }
    }
    payments.push({ n, rule: plan.rule, attempts, paidBy });
  }
  return { payments, providers: [...byProvider.values()] };
}

/** Tries the rules being edited (checked as PUT /me/routing checks them) on test payments of one sandbox payment method. */
export function tryRoutingRules(input: TryRoutingInput) {
  checkRules(input.rules);
  const rail = railById(input.paymentMethodId);
  if (!rail?.sandbox) throw new AppError("invalid_request", "Choose one of the test payment methods to try the rules on.", { param: "paymentMethodId" });
  const amount = toMinor(input.amountUsd, "USD");
  if (amount === null || amount <= 0n) throw new AppError("amount_invalid", "Enter a positive amount in USD with at most 2 decimals, like 25.", { param: "amountUsd" });
  const facts: PaymentFacts = { paymentMethodId: rail.paymentMethodId, amountUsdMinor: amount, country: rail.countryIso3, currency: rail.currency, documentType: null };
  const trial = runTrial(compileRoutingRules(input.rules), facts, ruleProviders(rail), input.count, Math.random);
  const rule = (i: number | null) => (i === null ? null : { index: i, name: input.rules[i]?.name ?? null, strategy: input.rules[i]!.strategy });
  return { railName: rail.name, payments: trial.payments.map((p) => ({ ...p, rule: rule(p.rule) })), providers: trial.providers };
}
