// Crypto top-ups of the payout balance (decisions.md "Crypto top-ups of the payout balance").
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { listOf, listQuery } from "@/lib/platform/paging/pagination";
import { CRYPTO_ASSETS, CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";

export const TOPUP_STATUSES = ["awaiting_funds", "credited", "expired"] as const;
/** Confirmations a transfer needs before it is credited, per network. */
export const CONFIRMATIONS = { TRON: 20, ETHEREUM: 12, POLYGON: 128 } as const;
/** The smallest transfer credited (USD minor units): Ethereum's fees make small ones pointless. */
export const MIN_TOPUP_USD_MINOR = { TRON: 100n, ETHEREUM: 1_000n, POLYGON: 100n } as const;
/** Why a transfer to a top-up address was held for an operator instead of credited (docs/integrators/payouts.md, "Crypto top-ups of the payout balance"). */
export const HOLD_REASONS = ["below_minimum", "after_first", "expired", "asset_mismatch", "recycled_address", "unassigned_address", "invalid_address"] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export const topup = z
  .object({
    id: z.string().describe("top_…"),
    asset: z.enum(CRYPTO_ASSETS),
    network: z.enum(CRYPTO_NETWORKS),
    address: z.string().describe("Send the asset here, on this network, before expiresAt"),
    status: z.enum(TOPUP_STATUSES),
    minAmount: z.number().describe("USD; smaller transfers are not credited"),
    confirmationsRequired: z.number().int(),
    creditedUsd: z.number().nullable(),
    txHash: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "Topup" });

const one = z.object({ topup });
const idParams = z.object({ id: z.string().min(1).max(64) });

export const createTopupEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/topups",
  tag: "Payouts",
  summary: "Get a deposit address to top up the payout USD balance with stablecoins",
  description: "The address is valid 24 h. Production addresses come from the pool the operator loads (empty pool: 503 topup_address_unavailable); the sandbox makes a synthetic, well-formed one.",
  auth: "secret",
  permission: "collect",
  idempotent: true,
  body: z.object({ asset: z.enum(CRYPTO_ASSETS), network: z.enum(CRYPTO_NETWORKS) }),
  response: one,
  successStatus: 201,
  errors: ["topup_address_unavailable"],
});

export const listTopupsEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/topups",
  tag: "Payouts",
  summary: "List top-ups",
  auth: "secret",
  permission: "read",
  query: z.object({ ...listQuery(), status: z.enum(TOPUP_STATUSES).optional() }),
  response: listOf(topup),
  errors: ["invalid_request"],
});

export const getTopupEndpoint = defineEndpoint({
  method: "GET",
  path: "/me/payout/topups/{id}",
  tag: "Payouts",
  summary: "A top-up",
  auth: "secret",
  permission: "read",
  params: idParams,
  response: one,
  errors: ["topup_not_found"],
});

export const simulateTopupEndpoint = defineEndpoint({
  method: "POST",
  path: "/me/payout/topups/{id}/simulate",
  tag: "Sandbox",
  summary: "Simulate a transfer to a top-up address (sandbox)",
  description: "Credits `amount` USD to the payout balance as a confirmed transfer would (once per top-up).",
  auth: "secret",
  idempotent: true,
  permission: "simulateCrypto",
  params: idParams,
  body: z.object({ amount: z.unknown().refine((v) => v !== undefined, "Required").meta({ type: "number", description: "USD" }) }),
  response: one,
  errors: ["topup_not_found", "amount_invalid"],
});

/** After the previous holder's top-up expired, how long every transfer to its recycled address is held. */
export const RECYCLED_HOLD_MS = 30 * 24 * 3_600_000;
