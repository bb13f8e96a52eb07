// Merchant routing rules (GET/PUT /me/routing): per shop and environment, an ordered list of
// rules, each for one rail (paymentMethodId) with optional conditions; the first rule whose rail
// and conditions match a payment decides the order of its providers; the platform default (the
// rail's priority list) applies when none does. Every PUT is a new version.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { DECLINE_CODES } from "@/lib/routing/declines";

export const STRATEGIES = ["priority", "split", "success_rate"] as const;
/** What success-rate routing maximises (issue 45): approvals, or the money a payment is expected to leave once its provider is paid. */
export const OBJECTIVES = ["approval", "net_revenue"] as const;
export type Objective = (typeof OBJECTIVES)[number];
export const DOCUMENT_TYPES = ["cpf", "cnpj", "rfc", "curp", "co_document", "other"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const ROUTING_REASONS = ["rule", "split", "success_rate", "exploration", "fallback"] as const;
export type RoutingReason = (typeof ROUTING_REASONS)[number];

// At most USD's 2 decimals: refused by the use case (400 amount_invalid, checkRules), not here,
// since stored rules are parsed with this schema again on every read.
const usd = z.number().nonnegative().max(100_000).describe("USD, major units, at most 2 decimals (more: 400 amount_invalid)");

export const routingRule = z
  .object({
    name: z.string().trim().min(1).max(80).optional(),
    paymentMethodId: z.string().min(1).max(40).describe("The rail this rule routes (GET /payment-methods)"),
    when: z
      .object({
        minAmountUsd: usd.optional().describe("The payment's USD amount is at least this"),
        maxAmountUsd: usd.optional().describe("…and below this"),
        countries: z.array(z.string().regex(/^[A-Za-z]{3}$/, "an ISO-3 country code")).min(1).max(30).optional(),
        currencies: z.array(z.string().regex(/^[A-Za-z]{3}$/, "an ISO 4217 code")).min(1).max(30).optional().describe("The currency the payment was asked in"),
        documentTypes: z.array(z.enum(DOCUMENT_TYPES)).min(1).optional(),
      })
      .strict()
      .optional(),
    strategy: z.enum(STRATEGIES).default("priority").describe("priority: in the listed order; split: the first provider drawn by weight; success_rate: ordered by recent approval rate"),
    providers: z
      .array(z.object({ provider: z.string().min(1).max(40), weight: z.number().int().min(0).max(1000).optional().describe("split: the provider's share of first attempts") }).strict())
      .min(1)
      .max(10),
    objective: z
      .enum(OBJECTIVES)
      .optional()
      .describe(
        "success_rate: what the order maximises. approval (the default): the chance the payment is approved. net_revenue: P(approve) × (amount − the provider's fee) − the fee of a failed attempt, from the provider cost table; among providers whose approval the data cannot tell apart, the cheapest goes first",
      ),
    exploration: z.number().min(0).max(0.5).optional().describe("success_rate: the share of payments sent to a provider drawn at random (default 0.05)"),
    fallback: z.boolean().default(true).describe("After the listed providers, try the rail's other providers"),
  })
  .strict();
export type RoutingRule = z.infer<typeof routingRule>;

export const putRoutingBody = z.object({ rules: z.array(routingRule).max(50) }).strict().meta({ id: "RoutingRulesInput" });
export type PutRoutingInput = z.infer<typeof putRoutingBody>;

export const routingQuery = z.object({ shopId: z.string().max(64).optional().describe("Required with a merchant-wide credential") });

export const routingResponse = z
  .object({
    shopId: z.string(),
    environment: z.enum(["sandbox", "production"]),
    version: z.number().int().describe("0: no rules yet (the platform default routes every payment)"),
    updatedAt: z.string().nullable(),
    rules: z.array(routingRule),
    platformDefault: z.array(z.object({ paymentMethodId: z.string(), providers: z.array(z.string()) })).describe("Each rail's providers in the platform's order, used when no rule matches"),
    declineCodes: z.array(z.object({ code: z.string(), decision: z.string() })).describe("Unified decline codes and what the cascade does with each"),
  })
  .meta({ id: "RoutingRules" });

export const getRoutingEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/routing",
  tag: "Routing",
  summary: "The shop's payment routing rules",
  auth: "secret",
  permission: "read",
  query: routingQuery,
  response: routingResponse,
  errors: ["shop_required", "shop_not_found"],
});

export const putRoutingEndpoint = defineEndpoint({
  method: "PUT",
  path: "/me/routing",
  tag: "Routing",
  summary: "Replace the shop's payment routing rules",
  description:
    "Replaces the rules of the key's environment and answers them with a new `version`; every provider attempt names the version (and the reason) that routed it. Rules are evaluated in order, the first whose rail and conditions match decides; the rail's platform order applies when none does. A provider that does not serve the rail, or a split without weights, is 400 `invalid_request` with `param` naming it; an amount threshold with more than 2 decimals is 400 `amount_invalid` naming it.",
  auth: "secret",
  permission: "manageRouting",
  query: routingQuery,
  body: putRoutingBody,
  response: routingResponse,
  errors: ["invalid_request", "amount_invalid", "shop_required", "shop_not_found"],
});

export const declineCodeList = () => Object.entries(DECLINE_CODES).map(([code, decision]) => ({ code, decision }));

/** The dashboard's rule trial (sandbox only): the rules being edited, tried on `count` test payments of one shape. */
export const tryRoutingInput = z
  .object({
    rules: putRoutingBody.shape.rules,
    paymentMethodId: z.string().min(1).max(40),
    amountUsd: z.number().positive().max(100_000),
    count: z.number().int().min(1).max(50),
  })
  .strict();
export type TryRoutingInput = z.infer<typeof tryRoutingInput>;
