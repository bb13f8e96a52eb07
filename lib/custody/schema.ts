// The custody provider's signed notices (one endpoint for both kinds): a transfer received on a
// top-up address, and the outcome of a withdrawal we asked it to send.
import { z } from "zod";
import { defineEndpoint } from "@/lib/platform/contract/endpoint";
import { CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";
import { decimalUnitsText } from "@/lib/money/notice-amounts";
import { HOLD_REASONS } from "@/lib/topups/schema";

const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const noticeId = z.string().min(1).max(100).describe("The provider's id of this notice: a replay of it is answered without acting again");

export const depositNotice = z.object({
  type: z.literal("deposit"),
  noticeId,
  address: z.string().min(1).max(100).describe("EVM addresses are compared without regard to case"),
  asset: z.string().regex(/^[A-Za-z0-9.]{2,16}$/).describe("The token that arrived (USDT, USDC, …): credited only when it is the top-up's asset; another asset is refused and held for review"),
  network: z.enum(CRYPTO_NETWORKS),
  txHash: z.string().regex(TX_HASH),
  logIndex: z
    .number()
    .int()
    .min(0)
    .max(2_147_483_647)
    .describe("The token Transfer event's log index as the chain reports it (EVM: the receipt log's logIndex; TRON: the event's index in the transaction's log): with txHash it names one transfer, since one transaction may carry many"),
  from: z.string().min(1).max(100).describe("The transfer's sender (the Transfer event's from; EVM compared without regard to case): on a pool address given before to another merchant, a sender of that merchant is held for review (recycled_address)"),
  amount: decimalUnitsText("USD", 6).describe("Stablecoin units (= USD), up to 6 decimals; at most 10^13 (more is 400 invalid_request)"),
  // The column is 32 bits: a count beyond it is no network's, and must not fail there as a 500.
  confirmations: z.number().int().min(0).max(2_147_483_647),
});

export const withdrawalNotice = z.discriminatedUnion("status", [
  z.object({ type: z.literal("withdrawal"), noticeId, reference: z.string().min(1).max(64).describe("Our withdrawal id, sent as the reference"), status: z.literal("completed"), txHash: z.string().regex(TX_HASH) }),
  z.object({ type: z.literal("withdrawal"), noticeId, reference: z.string().min(1).max(64), status: z.literal("failed"), reason: z.string().min(1).max(200) }),
]);

export const custodyNoticeBody = z.union([depositNotice, withdrawalNotice]);
export type CustodyNotice = z.output<typeof custodyNoticeBody>;

export const custodyNoticeEndpoint = defineEndpoint({
  method: "POST",
  path: "/custody/notifications",
  tag: "Payouts",
  summary: "The custody provider's signed notices: a deposit to a top-up address, a withdrawal's outcome",
  description:
    "Read raw. X-Custody-Signature is `t=<unix seconds>,v1=<hex>`, v1 the HMAC-SHA256 with CUSTODY_NOTICE_SECRET (the inbound secret, never the one our calls are signed with) of \"<t>.POST /api/v1/custody/notifications\\n<body>\"; a notice signed more than 5 minutes from now is refused. " +
    "Body `{type: deposit, noticeId, address, asset, network, txHash, logIndex, from, amount, confirmations}` credits a top-up with the first transfer of its asset that reaches the network's confirmations and the minimum (a transfer, txHash and logIndex, once); any other confirmed transfer to the address (below the minimum, after the first, first seen after expiry, on a recycled pool address from a sender of its previous holder or within 30 days of that holder's top-up) is held for review (`held` names why); a transfer of another asset is refused (400 invalid_request, param asset) and held. " +
    "`{type: withdrawal, noticeId, reference, status: completed, txHash}` or `{…, status: failed, reason}` ends a processing production withdrawal (withdrawal.completed or withdrawal.failed, once; a failure returns amount and fee). " +
    "A noticeId already applied answers `duplicate: true` and changes nothing.",
  auth: "none",
  rateLimit: false,
  response: z.object({
    received: z.literal(true),
    duplicate: z.boolean(),
    credited: z.boolean().optional().describe("deposit: whether this notice credited the top-up"),
    held: z.enum(HOLD_REASONS).optional().describe("deposit: the transfer is held for an operator's review, and why"),
    withdrawal: z.object({ id: z.string(), status: z.string() }).optional().describe("withdrawal: its status after the notice"),
  }),
  errors: ["invalid_signature", "invalid_json", "invalid_request", "withdrawal_not_found"],
});
