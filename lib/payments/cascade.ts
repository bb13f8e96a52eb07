// The provider cascade: the providers the routing decision orders (lib/routing/select.ts: the
// shop's rules, a volume split, success-rate routing, or the rail's platform order), tried in
// turn; the first that accepts with a hosted page or payment instructions wins. Every attempt is
// recorded with its unified decline code, the cascade's decision, and the routing version and
// reason that sent it there. A hard decline (decision `stop`) or `retry_same_later` ends the
// cascade at once with 402 (decisions.md "Declines and routing"); only soft failures move on.
import { log } from "@/lib/platform/log";
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { routableProviders } from "@/lib/catalog/list-payment-methods";
import { connectorFor } from "@/lib/providers/connectors";
import { providerCost } from "@/lib/providers/registry";
import type { ChargeRequest } from "@/lib/providers/types";
import type { Environment } from "@/lib/generated/prisma/enums";
import { failedAttempt, type SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";
import { classifyDecline, classifyWith, declineRules, errorCodeFor, type Classification, type Decision } from "@/lib/routing/declines";
import { currentRouting } from "@/lib/routing/rules";
import { selectRoute, type PaymentFacts, type Plan } from "@/lib/routing/select";
import { amountBand, recordOutcome, routingSnapshot, type OutcomeKind } from "@/lib/routing/stats";
import { cardKeyOf, isCardRail, reserveReattempt, type Reservation } from "@/lib/routing/retry-budget";
import type { RoutingReason } from "@/lib/routing/schema";
import { metrics } from "@/lib/platform/metrics/registry";
import { attemptCostUsd, type DecisionLog, type LoggedOutcome } from "@/lib/routing/propensity";

export { sandboxPaymentPage } from "@/lib/providers/sandbox/connector";

export type Attempt = {
  provider: string;
  outcome: "accepted" | "declined" | "unavailable" | "no_instructions";
  reason: string | null;
  durationMs: number;
  /** The unified decline code (lib/routing/declines.ts); null when accepted. Absent on rows older than the decline table. */
  declineCode?: string | null;
  decision?: Decision | null;
  /** The shop's routing version that ordered this attempt (0: no rules, the platform default). */
  routingVersion?: number | null;
  routingReason?: RoutingReason | null;
};
export type CascadeResult = { provider: string; providerRef: string; paymentFormUrl: string; instructions: Record<string, unknown> | null; attempts: Attempt[]; routingVersion?: number | null };
/** `log`: filled with the routing decision and each attempt's propensity and outcome (lib/routing/propensity.ts), for the caller to write with the payment's attempts. */
export type CascadeOptions = { enabledForShop: boolean; behaviour?: SandboxBehaviour; shopId?: string; merchantId?: string; facts?: PaymentFacts; rng?: () => number; log?: DecisionLog };

export async function runCascade(environment: Environment, req: ChargeRequest, opts: CascadeOptions): Promise<CascadeResult> {
  if (environment === "sandbox") return sandboxCascade(req, opts);
  // A recurring PIX charge goes only to the PSP holding its recurrence (lib/providers/mandates.ts).
  const routable = req.mandate ? [req.mandate.provider] : routableProviders(req.rail, environment, req.installments?.paidBy ?? null);
  const plan = await planFor(req, routable, opts);
  const version = plan.version;
  const attempts: Attempt[] = [];
  const band = opts.facts ? amountBand(opts.facts.amountUsdMinor) : "lt50";
  const rail = req.rail.paymentMethodId;
  let failedBefore = false;
  // Card rails: a reattempt after a soft decline spends the card's budget (lib/routing/retry-budget.ts).
  const card = isCardRail(req.rail) ? { key: cardKeyOf(req.buyer) } : null;
  let declinedBefore: Classification | null = null;
  const record = opts.log;
  const amountUsd = opts.facts?.amountUsdMinor ?? 0n;
  if (record) record.context = { rail, country: req.rail.countryIso3, band, brand: null, currency: opts.facts?.currency ?? req.currency, documentType: opts.facts?.documentType ?? null, amountUsdMinor: amountUsd, routable, routingVersion: version, rule: plan.rule };
  const logged = (k: number, code: string, reason: RoutingReason, outcome: LoggedOutcome, decision: string | null) =>
    record?.attempts.push({ step: k, provider: code, reason, choice: plan.choices[k]!, outcome, decision, costUsdMinor: attemptCostUsd(providerCost(code, rail), amountUsd, outcome === "approved") });
  for (const [k, { provider: code, reason: routingReason }] of plan.steps.entries()) {
    if (card && declinedBefore && k > 0) {
      // A card the payment cannot identify (neither document nor e-mail) cascades uncounted.
      const spent: Reservation = card.key ? await reserveReattempt({ environment, cardKey: card.key, merchantId: opts.merchantId ?? "unknown", transactionId: req.transactionId, provider: code }) : { allowed: true };
      if (!spent.allowed) throw budgetSpent(attempts, declinedBefore, spent);
    }
    const connector = connectorFor(code);
    const started = performance.now();
    // An exception is our own failure: its text goes to the log, never into the attempts a
    // merchant reads (error details, the transaction's record).
    const outcome = await connector.createCharge(req).catch((err: unknown) => {
      log.error({ provider: code, transaction: req.transactionId, err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, "provider connector threw");
      return { kind: "unavailable" as const, reason: "connector_error" };
    });
    const durationMs = Math.round(performance.now() - started);
    const routed = { routingVersion: version, routingReason };
    if (outcome.kind === "accepted") {
      const page = outcome.paymentFormUrl ?? (outcome.instructions ? `${config().APP_URL}/pay/${code}/${req.transactionId}` : null);
      if (page) {
        attempts.push({ provider: code, outcome: "accepted", reason: null, durationMs, declineCode: null, decision: null, ...routed });
        logged(k, code, routingReason, "approved", null);
        recordOutcome({ provider: code, rail, band, outcome: "approved", declineCode: null, latencyMs: durationMs, rescued: failedBefore });
        metrics().routingDecisions.inc({ provider: code, reason: routingReason, decision: "accepted" });
        return { provider: code, providerRef: outcome.providerRef, paymentFormUrl: page, instructions: outcome.instructions, attempts, routingVersion: version };
      }
    }
    const kind = outcome.kind === "accepted" ? "no_instructions" : outcome.kind;
    const raw = outcome.kind === "accepted" ? "no_instructions" : outcome.reason;
    const c = await classifyDecline(code, raw, outcome.kind === "declined" ? outcome.message : null);
    attempts.push({ provider: code, outcome: kind, reason: kind === "no_instructions" ? "accepted without a hosted page or instructions" : raw, durationMs, declineCode: c.declineCode, decision: c.decision, ...routed });
    logged(k, code, routingReason, kind === "declined" ? "declined" : "unknown", c.decision);
    recordOutcome({ provider: code, rail, band, outcome: outcomeKind(kind, c), declineCode: c.declineCode, latencyMs: durationMs });
    metrics().routingDecisions.inc({ provider: code, reason: routingReason, decision: c.decision });
    failedBefore = true;
    if (c.decision !== "retry_next") throw declined(attempts, c);
    // Only an answer counts against the card: a timeout or 5xx reached no issuer that said no.
    if (kind === "declined") declinedBefore = c;
  }
  return exhausted(attempts, plan.steps.length, opts.enabledForShop);
}

/**
 * The routing plan, timed twice. lp_routing_decision_seconds: the decision itself (rules,
 * split, success-rate scores, circuit — synchronous, in memory): what routing adds to every
 * payment. lp_routing_plan_seconds: the whole step, with the shop's rules (cached 30 s) and the
 * outcome window (refreshed in the background) — its tail is the occasional cache miss and the
 * event loop's other work while it waits, not routing's arithmetic. The decision's wall time is
 * also kept in buckets (lp_routing_decision_duration_seconds: one run's p99 from counter deltas),
 * beside its CPU time (lp_routing_decision_cpu_seconds): on a loaded machine the wall time's tail
 * is the OS preempting the process mid-decision, which the CPU time leaves out.
 */
async function planFor(req: ChargeRequest, routable: string[], opts: CascadeOptions): Promise<Plan> {
  const started = performance.now();
  const routing = opts.shopId ? await currentRouting(opts.shopId, "production") : null;
  const facts = opts.facts ?? { paymentMethodId: req.rail.paymentMethodId, amountUsdMinor: 0n, country: req.rail.countryIso3, currency: req.currency, documentType: null };
  const snap = await routingSnapshot();
  const band = amountBand(facts.amountUsdMinor);
  const rail = req.rail.paymentMethodId;
  const decided = performance.now();
  const cpu = process.cpuUsage();
  const plan = selectRoute(routing?.compiled ?? [], routing?.version ?? 0, facts, routable, {
    rng: opts.rng ?? Math.random,
    score: (p) => snap.score(p, rail, band),
    circuit: (p) => snap.circuit(p, rail),
    fallen: (p) => snap.fallen(p, rail, band),
    cost: (p) => providerCost(p, rail),
  });
  // No rule matched: the platform default, under the shop's version all the same.
  if (plan.version === null) plan.version = routing?.version ?? 0;
  const done = performance.now();
  const used = process.cpuUsage(cpu);
  metrics().routingDecision.observe((done - decided) / 1000);
  metrics().routingDecisionHist.observe((done - decided) / 1000);
  metrics().routingDecisionCpu.observe((used.user + used.system) / 1e6);
  metrics().routingPlan.observe((done - started) / 1000);
  return plan;
}

function outcomeKind(kind: Attempt["outcome"], c: Classification): OutcomeKind {
  if (c.decision !== "retry_next") return "hard";
  return kind === "declined" ? "declined" : "error";
}

/** The sandbox: the failing providers a Sandbox-Provider-Behaviour header scripts (lib/payments/sandbox-behaviour.ts), then the sandbox provider whose page the app serves. */
async function sandboxCascade(req: ChargeRequest, opts: CascadeOptions): Promise<CascadeResult> {
  const attempts: Attempt[] = [];
  const rules = await declineRules();
  for (const [i, step] of (opts.behaviour?.steps ?? ["accept"]).entries()) {
    if (step !== "accept") {
      const a = failedAttempt(step, i);
      // Scripted faults are classified like real answers, but never counted as unmapped codes.
      const c = classifyWith(rules, a.provider, a.reason);
      attempts.push({ ...a, declineCode: c.declineCode, decision: c.decision, routingVersion: 0, routingReason: "fallback" });
      if (c.decision !== "retry_next") throw declined(attempts, c);
      continue;
    }
    const ok = await connectorFor("sandbox").createCharge(req);
    if (ok.kind !== "accepted") throw new Error("the sandbox connector always accepts");
    attempts.push({ provider: "sandbox", outcome: "accepted", reason: null, durationMs: 0, declineCode: null, decision: null, routingVersion: 0, routingReason: "fallback" });
    return { provider: "sandbox", providerRef: ok.providerRef, paymentFormUrl: ok.paymentFormUrl!, instructions: null, attempts, routingVersion: 0 };
  }
  return exhausted(attempts, attempts.length, opts.enabledForShop);
}

/** A decline the cascade does not retry elsewhere: 402 with the contract's code and `decline_code`. */
function declined(attempts: Attempt[], c: Classification): AppError {
  const later = c.decision === "retry_same_later";
  return new AppError(errorCodeFor(c.declineCode), later ? `The payment was declined (${c.declineCode}); the buyer may retry later.` : `The payment was declined (${c.declineCode}). Another provider would receive the same answer, so no other was tried.`, {
    declineCode: c.declineCode,
    details: { declineCode: c.declineCode, decision: c.decision, attempts },
  });
}

/**
 * A soft decline the card's reattempt budget does not allow retrying elsewhere: 402 as a decline
 * (the code the last provider's answer maps to), with the limit that was reached.
 */
function budgetSpent(attempts: Attempt[], c: Classification, r: Extract<Reservation, { allowed: false }>): AppError {
  return new AppError(errorCodeFor(c.declineCode), `The payment was declined (${c.declineCode}). Another provider was not tried: this card has used the reattempts the card networks allow (${r.network}).`, {
    declineCode: c.declineCode,
    details: { declineCode: c.declineCode, decision: c.decision, attempts, reattemptBudget: { exhausted: true, max: r.max, windowHours: r.windowMs / 3_600_000, used: r.used, rule: r.network } },
  });
}

/** Whether an error is the cascade's stop on a decline (the row of a production payment then fails). */
export function isCascadeDecline(err: unknown): err is AppError & { declineCode: string; details: { attempts: Attempt[]; declineCode: string } } {
  return err instanceof AppError && !!err.declineCode && err.status === 402 && Array.isArray((err.details as { attempts?: unknown } | undefined)?.attempts);
}

function exhausted(attempts: Attempt[], providerCount: number, enabledForShop: boolean): never {
  const broken = attempts.find((a) => a.outcome === "no_instructions");
  if (broken && attempts.every((a) => a.outcome !== "declined")) {
    throw new AppError("payment_instructions_unavailable", "The provider accepted the charge but returned neither a hosted page nor payment instructions. No transaction was created; retry, then report the provider.", {
      details: { provider: broken.provider, attempts },
    });
  }
  const reason = providerCount === 0 ? "no_provider_for_method_region" : attempts.every((a) => a.outcome === "declined") ? "all_providers_declined" : "providers_unavailable";
  const declineCode = attempts.at(-1)?.declineCode ?? undefined;
  throw new AppError("cascade_exhausted", `No provider could take this charge (${reason}).`, {
    declineCode,
    details: { reason, attempts, paymentMethodEnabledForShop: enabledForShop, ...(declineCode ? { declineCode } : {}) },
  });
}
