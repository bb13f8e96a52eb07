// Withdrawals (decisions.md "Withdrawals"): shapes and endpoints.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";
import { cryptoDestination, setDestinationBody } from "@/lib/crypto-assets/schema";

export const WITHDRAWAL_STATUSES = ["processing", "completed", "failed"] as const;

export const withdrawal = z
  .object({
    id: z.string().describe("wdr_…"),
    status: z.enum(WITHDRAWAL_STATUSES),
    amountUsd: z.number().describe("What the destination receives"),
    feeUsd: z.number().describe("The tier's withdrawalFeeUsd, taken on top"),
    destination: cryptoDestination,
    txHash: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: "Withdrawal" });

const one = z.object({ withdrawal });
const idParams = z.object({ id: z.string().min(1).max(64) });

export const createWithdrawalBody = z.object({
  amountUsd: z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: "> 0, USD major units" }),
  destination: setDestinationBody.optional().describe("Default: the settlement destination"),
});

export const createWithdrawalEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/withdrawals",
  tag: "Withdrawals",
  summary: "Withdraw available USD to a crypto address",
  description:
    "Holds amountUsd plus the tier's withdrawalFeeUsd (available -> in transit) in one transaction, then hands the transfer to the custody provider with our id. Answers 200 with the withdrawal, `processing` until the provider confirms (an unknown answer is never a failure). 422 balance_insufficient with details.availableUsd and shortfallUsd; no destination given or set: 422 missing_required_fields (param destination).",
  auth: "secret",
  permission: "moveMoney",
  idempotent: true,
  body: createWithdrawalBody,
  response: one,
  errors: ["amount_invalid", "balance_insufficient", "missing_required_fields", "service_unavailable"],
});

export const listWithdrawalsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/withdrawals",
  tag: "Withdrawals",
  summary: "List withdrawals",
  description: "Newest first; offset or cursor paging; filter status.",
  auth: "secret",
  permission: "read",
  query: z.object({ ...listQuery(), status: z.enum(WITHDRAWAL_STATUSES).optional() }),
  response: listOf(withdrawal),
  errors: ["invalid_request"],
});

export const getWithdrawalEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/withdrawals/{id}",
  tag: "Withdrawals",
  summary: "A withdrawal",
  auth: "secret",
  permission: "read",
  params: idParams,
  response: one,
  errors: ["withdrawal_not_found"],
});

export const simulateWithdrawalEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/withdrawals/{id}/simulate",
  tag: "Sandbox",
  summary: "Complete or fail a withdrawal (sandbox)",
  description: "completed: the amount leaves the books with a synthetic txHash, the fee is earned; failed: amount and fee back to available. Not processing: 400 invalid_request with details.status.",
  auth: "secret",
  idempotent: true,
  permission: "simulateCrypto",
  params: idParams,
  body: z.object({ action: z.enum(["completed", "failed"]) }),
  response: one,
  errors: ["withdrawal_not_found"],
});
