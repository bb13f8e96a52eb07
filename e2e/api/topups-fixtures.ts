// Shared set-up of the crypto top-up API tests (topups-*.test.ts; not a test file itself):
// addresses and hashes per network, signed custody deposit notices, the payout USD balance, a
// production top-up, the ledger's credits, and held transfers by reason from /metrics.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import bs58check from "bs58check";
import { getAddress } from "viem";
import { API_URL, api, postCustodyNotice } from "./helpers.ts";
import { db } from "@/lib/platform/db";

export const usdAvailable = async (key: string) => (await api("/me/payout/balance", { key })).body.balances.find((b: any) => b.currency === "USD").available as number;
export const tronAddress = () => bs58check.encode(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]));

/**
 * A deposit notice of the custody provider (USDT, the transaction's first transfer, from a sender
 * of its own unless named), each with its own noticeId (distinct reports of a transfer).
 */
export function notify(body: Record<string, unknown>, secret = process.env.CUSTODY_NOTICE_SECRET!) {
  return postCustodyNotice({ type: "deposit", asset: "USDT", logIndex: 0, from: senderOf(String(body.network), String(body.txHash)), ...body }, { secret });
}
/** A well-formed sender address drawn from the transaction hash: every report of a transfer names the same one. */
export function senderOf(network: string, txHash: string): string {
  const body = createHash("sha256").update(txHash).digest().subarray(0, 20);
  return network === "TRON" ? bs58check.encode(Buffer.concat([Buffer.from([0x41]), body])) : `0x${body.toString("hex")}`;
}
export const evmHash = () => `0x${randomBytes(32).toString("hex")}`;
export const transfers = (topupId: string) => db().topupTransfer.findMany({ where: { topupId }, orderBy: { firstSeenAt: "asc" } });
/** A fresh EVM address in its EIP-55 spelling (mixed case), as an operator loads it. */
export const checksummed = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

export const askTopup = async (key: string, network: "TRON" | "ETHEREUM" | "POLYGON") => {
  const r = await api("/me/payout/topups", { key, body: { asset: "USDT", network } });
  assert.equal(r.status, 201, r.text);
  return r.body.topup as { id: string; address: string };
};
export const credits = (merchantId: string) => db().ledgerPosting.count({ where: { merchantId, kind: "topup_credited" } });

/** lp_topup_transfers_held_by_reason from /metrics, by reason. */
export async function heldByReason(): Promise<Record<string, number>> {
  const text = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  return Object.fromEntries([...text.matchAll(/^lp_topup_transfers_held_by_reason\{reason="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}
