// The use case behind POST /me/routing/evaluate, `npm run routing:evaluate` and the dashboard's
// "Estimate on past traffic": the owner's routing_decisions of the period, grouped into payments,
// estimated for the candidate rules (lib/routing/evaluate.ts), presented in USD.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { merchantScope, type Owner } from "@/lib/platform/scope";
import { providerCost } from "@/lib/providers/registry";
import { compileRoutingRules } from "@/lib/routing/select";
import { evaluateRules, type Figures, type LoggedDecision } from "@/lib/routing/evaluate";
import { periodMs, type EvaluateRoutingInput, type EvaluationAnswer } from "@/lib/routing/evaluate-schema";
import type { DocumentType } from "@/lib/routing/schema";
import type { LoggedOutcome } from "@/lib/routing/propensity";

/** The most attempts one estimate reads (the newest of the period): a bound on its time and memory. */
export const MAX_ATTEMPTS_READ = 200_000;

export async function evaluateRoutingRules(owner: Owner, query: { shopId?: string }, input: EvaluateRoutingInput, now = new Date()): Promise<EvaluationAnswer> {
  if (owner.shop && query.shopId && query.shopId !== owner.shop.id) throw new AppError("forbidden", "`shopId` is not the shop of this credential.", { param: "shopId" });
  const shopId = owner.shop?.id ?? query.shopId;
  const since = new Date(now.getTime() - periodMs(input.since));
  const rows = await db().routingDecision.findMany({
    where: { ...merchantScope(owner), ...(shopId ? { shopId } : {}), at: { gte: since } },
    orderBy: [{ at: "desc" }],
    take: MAX_ATTEMPTS_READ,
    select: { transactionId: true, step: true, provider: true, propensity: true, outcome: true, decision: true, costUsd: true, routable: true, rail: true, country: true, band: true, brand: true, currency: true, documentType: true, amountUsd: true },
  });
  const byPayment = new Map<string, typeof rows>();
  for (const r of rows) byPayment.set(r.transactionId, [...(byPayment.get(r.transactionId) ?? []), r]);
  const logs: LoggedDecision[] = [];
  for (const attempts of byPayment.values()) {
    attempts.sort((a, b) => a.step - b.step);
    // A payment cut by the read's bound (its first attempts older than the newest read) is left out.
    if (attempts[0]!.step !== 0) continue;
    const f = attempts[0]!;
    logs.push({
      facts: { paymentMethodId: f.rail, amountUsdMinor: f.amountUsd, country: f.country, currency: f.currency, documentType: (f.documentType as DocumentType | null) ?? null },
      band: f.band,
      brand: f.brand,
      routable: f.routable,
      steps: attempts.map((a) => ({ provider: a.provider, propensity: a.propensity, outcome: a.outcome as LoggedOutcome, decision: a.decision, costUsdMinor: Number(a.costUsd) })),
    });
  }
  const e = evaluateRules(logs, compileRoutingRules(input.rules), providerCost);
  return {
    since: since.toISOString(),
    payments: e.decisions,
    matched: e.matched,
    effectiveSampleSize: Math.round(e.effectiveSampleSize * 10) / 10,
    enough: e.enough,
    reason: e.enough ? null : e.reason,
    inForce: e.inForce ? inUsd(e.inForce) : null,
    ips: e.enough ? inUsd(e.ips) : null,
    dr: e.enough ? inUsd(e.dr) : null,
  };
}

/** The estimates as the API shows them: rates to four decimals, net revenue in USD to the cent (an estimate, never an amount that moves). */
function inUsd(f: Figures) {
  const rate = (x: number) => Math.round(x * 10_000) / 10_000;
  const usd = (x: number) => Math.round(x) / 100;
  const a = f.approvalRate;
  const n = f.netRevenuePerPaymentUsdMinor;
  return { approvalRate: { value: rate(a.value), low: rate(a.low), high: rate(a.high) }, netRevenuePerPaymentUsd: { value: usd(n.value), low: usd(n.low), high: usd(n.high) } };
}
