// POST /me/routing/evaluate (issue 45, "policies tried on history"): a candidate rule set (the
// shape PUT /me/routing takes) estimated on the shop's routed payments of a recent period
// (lib/routing/evaluate-rules.ts). Nothing is saved.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { putRoutingBody, routingQuery } from "@/lib/routing/schema";

/** A period back from now: a number and a unit, hours or days (at most 90 days). */
export const sinceField = z
  .string()
  .regex(/^\d{1,4}[hd]$/, "a period such as 24h or 7d")
  .refine((s) => periodMs(s) <= 90 * 86_400_000, "at most 90 days")
  .default("7d")
  .describe("How far back to read the routed payments: 24h, 7d, 30d (at most 90 days)");
export function periodMs(since: string): number {
  const n = Number(since.slice(0, -1));
  return n * (since.endsWith("h") ? 3_600_000 : 86_400_000);
}

export const evaluateRoutingBody = z.object({ rules: putRoutingBody.shape.rules, since: sinceField }).strict().meta({ id: "RoutingEvaluationInput" });
export type EvaluateRoutingInput = z.infer<typeof evaluateRoutingBody>;

const interval = z.object({ value: z.number(), low: z.number(), high: z.number() }).describe("An estimate and its 95 % interval");
const figures = z
  .object({
    approvalRate: interval.describe("Share of payments approved, 0 to 1"),
    netRevenuePerPaymentUsd: interval.describe("USD per payment: the amount of an approved payment less every attempt's provider cost"),
  })
  .meta({ id: "RoutingFigures" });

export const evaluationResponse = z
  .object({
    since: z.string().describe("The start of the period read (ISO 8601)"),
    payments: z.number().int().describe("Routed payments in the period"),
    matched: z.number().int().describe("Of those, payments whose logged route the candidate could have taken"),
    effectiveSampleSize: z.number().describe("(Σρ)² / Σρ² of the payments' weights: how many payments the estimate is worth"),
    enough: z.boolean().describe("false: too little traffic to estimate (see reason); no estimate is given"),
    reason: z.string().nullable(),
    inForce: figures.nullable().describe("What the rules in force had over the period (observed)"),
    ips: figures.nullable().describe("Self-normalised inverse propensity scoring; interval: normal approximation (delta method)"),
    dr: figures.nullable().describe("Doubly robust, with an outcome model per provider and segment fitted on the same payments; interval: normal approximation of its influence function"),
  })
  .meta({ id: "RoutingEvaluation" });
export type EvaluationAnswer = z.infer<typeof evaluationResponse>;

export const evaluateRoutingEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/routing/evaluate",
  tag: "Routing",
  summary: "Estimate routing rules on past traffic",
  description:
    "Estimates what a candidate rule set (the body PUT /me/routing takes) would have had on the shop's routed payments of the period: approval rate and net revenue per payment, by inverse propensity scoring and doubly robust estimators, each with a 95 % interval, beside what the rules in force had. Every routed payment records the probability with which its provider was chosen; with too little traffic, or a candidate that routes where the rules in force rarely went, `enough` is false and `reason` says why. Nothing is saved.",
  auth: "secret",
  permission: "read",
  query: routingQuery,
  body: evaluateRoutingBody,
  response: evaluationResponse,
  errors: ["invalid_request", "forbidden"],
});
