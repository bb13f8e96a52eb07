import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";

export const balanceResponse = z
  .object({
    merchantId: z.string(),
    currency: z.literal("USD"),
    balance: z.object({ available: z.number(), pending: z.number(), frozen: z.number().describe("Held against open claims"), reserve: z.number().describe("Rolling reserve") }),
    ledgerWarnings: z.array(z.object({ code: z.string(), message: z.string() })),
    tier: z.enum(["starter", "standard", "premium"]),
    trustScore: z.number().int(),
    rollingReservePct: z.number(),
    withdrawalFeeUsd: z.number(),
    feeSummary: z.object({ grossVolume: z.number(), platformFees: z.number(), flatFees: z.number(), chargebackFees: z.number(), totalFees: z.number(), netBalance: z.number() }).describe("Last 90 days"),
    movements: z.array(z.object({ id: z.string(), type: z.string(), amount: z.number(), bucket: z.string(), transactionId: z.string().nullable(), claimId: z.string().nullable(), createdAt: z.string() })),
    reserveSchedule: z.array(z.object({ releaseAt: z.string(), amount: z.number() })),
  })
  .meta({ id: "Balance" });

export const getBalanceEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/balance",
  tag: "Balance",
  summary: "The pay-in balance, derived from the ledger",
  auth: "secret",
  permission: "read",
  response: balanceResponse,
  errors: [],
});

export const settleNowEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/balance/settle-now",
  tag: "Sandbox",
  summary: "Settle pending funds now (sandbox)",
  description:
    "Sandbox only; a live key gets 400 production_key_refused. Moves every completed payment still waiting for its settlement date (T+N) from `pending` to `available` at once, through the same ledger recipe as the daily settlement job, so settlements and withdrawals can be tried on day one. The rolling reserve stays held. Answers how many payments settled (0 when none waited) and the balance after.",
  auth: "secret",
  permission: "settleNow",
  response: z.object({ settled: z.number().int().describe("Payments moved to available"), balance: balanceResponse }),
  errors: [],
});
