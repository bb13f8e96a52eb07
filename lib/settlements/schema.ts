// Settlement batches (decisions.md "Settlements (batches)"): shapes and endpoints. A batch is the
// merchant's, not a shop's (docs/integrators/payouts.md "Settlements"): the ledger keeps one balance per merchant and
// environment, and a batch sweeps all of it.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";
import { cryptoDestination } from "@/lib/crypto-assets/schema";

export const SETTLEMENT_STATUSES = ["closed", "paid", "failed"] as const;

export const settlement = z
  .object({
    id: z.string().describe("stl_…"),
    status: z.enum(SETTLEMENT_STATUSES),
    periodFrom: z.string(),
    periodTo: z.string(),
    grossUsd: z.number().describe("What the available balance held at close"),
    feeUsd: z.number().describe("The tier's withdrawalFeeUsd"),
    netUsd: z.number().describe("grossUsd - feeUsd: what the destination receives"),
    transactionCount: z.number().int().describe("Payments whose net this batch swept"),
    destination: cryptoDestination,
    txHash: z.string().nullable(),
    receiptReady: z.boolean(),
    createdAt: z.string(),
    closedAt: z.string(),
    paidAt: z.string().nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: "Settlement" });

const one = z.object({ settlement });
const idParams = z.object({ id: z.string().min(1).max(64) });
const day = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date or date-time");

export const runSettlementBody = z.object({
  waiveMinimum: z.boolean().optional().describe("Close a balance under the 50 USD minimum (it must still exceed the fee). Default false, as the daily batch."),
});

export const runSettlementEndpoint = defineEndpoint({
  method: "POST",
  path: "/settlements/run",
  tag: "Settlements",
  summary: "Close a settlement batch now (sandbox)",
  description:
    "Runs the daily batch at once for the key's merchant: the available pay-in USD (at least 50 USD, unless `waiveMinimum` is true: then any balance above the fee, so a small batch can be tried; production's daily batch always keeps the minimum) goes to the settlement destination, less the tier's withdrawal fee. Answers the closed batch, or `settlement: null` with `skipped` (below_minimum, no_destination) when nothing closes. The balance is the merchant's, one per environment, not a shop's: the batch sweeps every shop's sales. So it needs a credential that covers every shop: a merchant-wide one, or the key of the merchant's only shop; a shop's key beside other shops gets 403 `forbidden` (`details.reason`: merchant_wide_credential_required).",
  auth: "secret",
  permission: "runSettlement",
  body: runSettlementBody,
  response: z.object({ settlement: settlement.nullable(), skipped: z.enum(["below_minimum", "no_destination"]).nullable() }),
  errors: ["invalid_request", "forbidden"],
});

export const listSettlementsEndpoint = defineEndpoint({
  method: "GET",
  path: "/settlements",
  tag: "Settlements",
  summary: "List settlement batches",
  description: "Newest first; offset or cursor paging; filters status, from, to (closing time). Batches are the merchant's (one balance per merchant and environment): every key of the merchant, shop-bound or not, lists all of them, as its ledger export shows their postings.",
  auth: "secret",
  permission: "read",
  query: z.object({ ...listQuery(), status: z.enum(SETTLEMENT_STATUSES).optional(), from: day.optional(), to: day.optional() }),
  response: listOf(settlement),
  errors: ["invalid_request"],
});

export const getSettlementEndpoint = defineEndpoint({
  method: "GET",
  path: "/settlements/{id}",
  tag: "Settlements",
  summary: "Retrieve a settlement batch",
  description: "Any key of the merchant, shop-bound or not: a batch is the merchant's. Another merchant's or environment's batch is 404 settlement_not_found.",
  auth: "secret",
  permission: "read",
  params: idParams,
  response: one,
  errors: ["settlement_not_found"],
});

export const settlementReceiptEndpoint = defineEndpoint({
  method: "GET",
  path: "/settlements/{id}/receipt",
  tag: "Settlements",
  summary: "The PDF receipt of a settlement batch",
  description: "application/pdf, rendered by a job after closing (and again once paid, with the txHash); 404 settlement_not_found until it is ready.",
  auth: "secret",
  permission: "read",
  params: idParams,
  response: z.string().describe("application/pdf"),
  responseType: "application/pdf",
  errors: ["settlement_not_found"],
});

export const simulateSettlementEndpoint = defineEndpoint({
  method: "POST",
  path: "/settlements/{id}/simulate",
  tag: "Settlements",
  summary: "Simulate the custody outcome of a settlement batch (sandbox)",
  description: "paid: the net leaves the books with a synthetic txHash; failed: the gross goes back to available. A second payment is 409 settlement_already_paid. Like running a batch, it moves the merchant's money, not a shop's: a shop's key beside other shops gets 403 `forbidden`; use a merchant-wide credential.",
  auth: "secret",
  idempotent: true,
  permission: "simulateCrypto",
  params: idParams,
  body: z.object({ action: z.enum(["paid", "failed"]) }),
  response: one,
  errors: ["settlement_not_found", "settlement_already_paid", "forbidden"],
});
