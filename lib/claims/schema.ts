import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import { transactionIdParams } from "@/lib/payments/schema";

export const CLAIM_KINDS = ["user_dispute", "chargeback"] as const;
export const CLAIM_STATUSES = ["pending", "open", "resolved", "rejected", "won", "lost"] as const;

export const refundBody = z.object({
  amount: z.unknown().optional().meta({ type: "number", description: "Local-currency major units of the original payment; default: all that remains" }),
  reason: z.string().max(500).optional().describe("e.g. requested_by_customer, duplicate, fraudulent, other"),
});

export const refund = z
  .object({ refundId: z.string(), transactionId: z.string(), amount: z.number(), amountUsd: z.number(), currency: z.string(), status: z.string(), reason: z.string().nullable(), createdAt: z.string() })
  .meta({ id: "Refund" });

export const claim = z
  .object({
    id: z.string(),
    kind: z.enum(CLAIM_KINDS),
    status: z.enum(CLAIM_STATUSES),
    transactionId: z.string(),
    amount: z.number(),
    amountUsd: z.number(),
    currency: z.string(),
    reason: z.string().nullable(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    history: z.array(z.object({ status: z.string(), at: z.string() })),
  })
  .meta({ id: "Claim" });

export const refundPaymentEndpoint = defineEndpoint({
  method: "POST",
  path: "/payments/{id}/refund",
  tag: "Refunds",
  summary: "Refund a completed payment, fully or in part",
  description: "Opens a claim of kind user_dispute (status pending) and freezes the amount; the provider's confirmation resolves it. The amount is in the payment's local currency.",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  params: transactionIdParams,
  body: refundBody,
  response: refund,
  errors: ["transaction_not_found", "amount_invalid", "amount_out_of_limits", "balance_insufficient"],
});

export const getClaimEndpoint = defineEndpoint({
  method: "GET",
  path: "/claims/{id}",
  tag: "Refunds",
  summary: "A refund or chargeback claim and its history",
  auth: "secret",
  permission: "read",
  params: z.object({ id: z.string().min(1).max(64) }),
  response: z.object({ claim }).meta({ id: "ClaimEnvelope" }),
  errors: ["claim_not_found"],
});
