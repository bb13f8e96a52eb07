// Crypto top-ups: a deposit address (the operator's pool in production, a synthetic one in the
// sandbox), then the first transfer to it that is confirmed enough credits the payout USD
// balance 1:1, through the money kernel (recipe topupCredited), once: the top-up row is locked and
// moves awaiting_funds -> credited once, and (network, txHash) is unique, so five notices of one
// transfer at once credit it once.
import { createHash, randomBytes } from "node:crypto";
import bs58check from "bs58check";
import { getAddress } from "viem";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { bindOnNextTransition } from "@/lib/http/idempotency";
import { newId } from "@/lib/ids";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { topupCredited } from "@/lib/ledger/recipes";
import { lockRow, transition } from "@/lib/ledger/transition";
import { bindIdempotency } from "@/lib/http/idempotency";
import { listEnvelope, pageRows, readPage } from "@/lib/http/pagination";
import { CONFIRMATIONS, MIN_TOPUP_USD_MINOR } from "@/lib/topups/schema";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import type { CryptoAsset, CryptoNetwork } from "@/lib/crypto-assets/networks";
import type { Environment, TopupStatus } from "@/lib/generated/prisma/enums";
import type { Topup } from "@/lib/generated/prisma/client";

type Scope = { merchant: { id: string }; environment: Environment };
const VALID_MS = 24 * 3_600_000;

/** Past its 24 h and never funded: expired (on every read; nothing else depends on it). */
const shown = (t: Topup): Topup => (t.status === "awaiting_funds" && t.expiresAt <= new Date() ? { ...t, status: "expired" } : t);

export function presentTopup(row: Topup) {
  const t = shown(row);
  const network = t.network as CryptoNetwork;
  return {
    id: t.id,
    asset: t.asset as CryptoAsset,
    network,
    address: t.address,
    status: t.status,
    minAmount: toMajor(t.minAmountUsd, "USD"),
    confirmationsRequired: CONFIRMATIONS[network],
    creditedUsd: t.creditedUsd === null ? null : toMajor(t.creditedUsd, "USD"),
    txHash: t.txHash,
    expiresAt: t.expiresAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
  };
}

/** A well-formed address nobody holds (sandbox): TRON base58check with 0x41, or an EIP-55 EVM one. */
function syntheticAddress(network: CryptoNetwork): string {
  const body = randomBytes(20);
  if (network === "TRON") return bs58check.encode(Buffer.concat([Buffer.from([0x41]), body]));
  return getAddress(`0x${body.toString("hex")}`);
}

export async function createTopup(auth: Scope, body: { asset: CryptoAsset; network: CryptoNetwork }) {
  const id = newId("topup");
  const now = new Date();
  const row = await db().$transaction(async (tx) => {
    let address: string;
    if (auth.environment === "sandbox") address = syntheticAddress(body.network);
    else {
      // One address of the pool, taken once (SKIP LOCKED: two requests never get the same one).
      const free = await tx.$queryRaw<{ address: string }[]>`
        UPDATE topup_addresses SET topup_id = ${id}
        WHERE address = (SELECT address FROM topup_addresses WHERE network = ${body.network} AND topup_id IS NULL ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING address`;
      if (!free[0]) throw new AppError("topup_address_unavailable", `No ${body.network} deposit address is available right now; try again later.`, { headers: { "Retry-After": "600" } });
      address = free[0].address;
    }
    await bindIdempotency(tx, { resource: "topup", id });
    return tx.topup.create({ data: { id, merchantId: auth.merchant.id, environment: auth.environment, asset: body.asset, network: body.network, address, minAmountUsd: MIN_TOPUP_USD_MINOR[body.network], expiresAt: new Date(now.getTime() + VALID_MS), createdAt: now } });
  });
  return { topup: presentTopup(row) };
}

export async function findOwnedTopup(scope: Scope, id: string): Promise<Topup> {
  const t = await db().topup.findFirst({ where: { id, merchantId: scope.merchant.id, environment: scope.environment } });
  if (!t) throw new AppError("topup_not_found", `No top-up ${id}.`, { param: "id" });
  return t;
}

export async function getTopup(scope: Scope, id: string) {
  return { topup: presentTopup(await findOwnedTopup(scope, id)) };
}

export async function listTopups(scope: Scope, q: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: TopupStatus }) {
  const base = { merchantId: scope.merchant.id, environment: scope.environment };
  const now = new Date();
  // `expired` is shown, not stored: filter by what a reader sees.
  const status = q.status === "expired" ? { status: "awaiting_funds" as const, expiresAt: { lte: now } } : q.status === "awaiting_funds" ? { status: "awaiting_funds" as const, expiresAt: { gt: now } } : q.status ? { status: q.status } : {};
  const where = { ...base, ...status };
  const { rows, meta } = await pageRows(readPage(q), {
    find: ({ extra, orderBy, skip, take }) => db().topup.findMany({ where: { ...where, ...extra }, orderBy, skip, take }),
    count: () => db().topup.count({ where }),
    cursor: (id) => db().topup.findFirst({ where: { ...base, id } }),
  });
  return listEnvelope(rows.map(presentTopup), meta);
}

/**
 * A transfer to a top-up's address: credited when it has the network's confirmations and at
 * least the minimum, once. Answers whether this call credited it.
 */
export async function creditTransfer(topupId: string, transfer: { txHash: string; amountUsd: bigint; confirmations: number }): Promise<boolean> {
  const r = await transition({
    name: "topupCredited",
    load: (tx) => lockRow(tx, "topups", topupId, () => tx.topup.findUnique({ where: { id: topupId } })),
    ledger: (t) => ({ merchantId: t.merchantId, environment: t.environment }),
    status: (t) => t.status,
    from: ["awaiting_funds"],
    apply: async (tx, t) => {
      const network = t.network as CryptoNetwork;
      if (transfer.confirmations < CONFIRMATIONS[network] || transfer.amountUsd < t.minAmountUsd) {
        await tx.topup.update({ where: { id: t.id }, data: { confirmations: Math.max(t.confirmations, transfer.confirmations) } });
        return null;
      }
      // Another top-up already credited this transfer: nothing more.
      if (await tx.topup.findFirst({ where: { network: t.network, txHash: transfer.txHash }, select: { id: true } })) return null;
      const row = await tx.topup.update({ where: { id: t.id }, data: { status: "credited", creditedUsd: transfer.amountUsd, txHash: transfer.txHash, confirmations: transfer.confirmations, creditedAt: new Date() } });
      return { result: row, postings: [topupCredited(transfer.amountUsd)] };
    },
  });
  return r.changed;
}

/** A custody notice: the top-up whose address received the transfer (late transfers to an expired address still credit: the money arrived). */
export async function applyCustodyNotice(n: { address: string; network: CryptoNetwork; txHash: string; amount: string; confirmations: number }): Promise<boolean> {
  if (!isValidAddress(n.network, n.address)) return false;
  const t = await db().topup.findFirst({ where: { address: n.address, network: n.network, environment: "production" }, orderBy: { createdAt: "desc" } });
  if (!t) return false;
  // Stablecoin units (up to 6 decimals) to USD cents, rounded down: we never credit more than arrived.
  const [whole, fraction = ""] = n.amount.split(".");
  const amountUsd = BigInt(whole!) * 100n + BigInt((fraction + "00").slice(0, 2));
  return creditTransfer(t.id, { txHash: n.txHash, amountUsd, confirmations: n.confirmations });
}

/** Sandbox: a confirmed transfer of `amount` USD to the top-up's address. */
export async function simulateTopup(scope: Scope, id: string, amount: unknown) {
  const t = await findOwnedTopup(scope, id);
  const usd = parseAmount(amount, "USD");
  if (usd <= 0n) throw new AppError("amount_invalid", "amount must be greater than zero.", { param: "amount" });
  const txHash = (t.network === "TRON" ? "" : "0x") + createHash("sha256").update(`${t.id}:${randomBytes(8).toString("hex")}`).digest("hex");
  bindOnNextTransition({ resource: "topup", id: t.id });
  await creditTransfer(t.id, { txHash, amountUsd: usd, confirmations: CONFIRMATIONS[t.network as CryptoNetwork] });
  return { topup: presentTopup((await db().topup.findUnique({ where: { id: t.id } }))!) };
}

/** Operator CLI: addresses for the production pool (checked; already known ones skipped). */
export async function loadTopupAddresses(network: CryptoNetwork, addresses: string[]): Promise<{ added: number; skipped: number }> {
  let added = 0;
  for (const raw of addresses) {
    const address = raw.trim();
    if (!address) continue;
    if (!isValidAddress(network, address)) throw new AppError("invalid_request", `${address} is not a valid ${network} address.`, { param: "address" });
    const r = await db().topupAddress.createMany({ data: [{ address, network }], skipDuplicates: true });
    added += r.count;
  }
  return { added, skipped: addresses.filter((a) => a.trim()).length - added };
}
