// The transfers custody reports to top-up addresses (lib/topups/topups.ts' header): each recorded
// once by (network, txHash, logIndex), then credited through the money kernel or held for an
// operator with its reason. Never dropped.
import bs58check from "bs58check";
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { decimalToMinorDown } from "@/lib/money/amount";
import { topupCredited } from "@/lib/ledger/recipes";
import { lockRow, transition } from "@/lib/ledger/transition";
import { CONFIRMATIONS, RECYCLED_HOLD_MS, type HoldReason } from "@/lib/topups/schema";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import type { CryptoNetwork } from "@/lib/crypto-assets/networks";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { Topup } from "@/lib/generated/prisma/client";

export type TransferOutcome = { credited: boolean; held?: HoldReason };
/** One transfer: `logIndex` tells it from the other transfers of its transaction; `from` its sender (EVM in lower case), null when unknown. */
type Transfer = { asset: string; address: string; txHash: string; logIndex: number; from: string | null; amount: string; amountUsd: bigint; confirmations: number };
/** The log index of rows recorded before notices carried one (migration *_topup_transfer_log_index). */
const LEGACY_LOG_INDEX = -1;

/** Why a confirmed transfer to `t` is not credited, or null when it is. */
function holdFor(t: Topup, transfer: Transfer, firstSeenAt: Date, recycled: boolean): HoldReason | null {
  if (transfer.asset !== t.asset) return "asset_mismatch";
  // Before after_first: likely another merchant's money, which an operator should see as such.
  if (recycled) return "recycled_address";
  if (t.status !== "awaiting_funds") return "after_first";
  if (firstSeenAt > t.expiresAt) return "expired";
  if (transfer.amountUsd < t.minAmountUsd) return "below_minimum";
  return null;
}

/**
 * Whether a transfer to `t`'s address may belong to a previous holder of that pool address
 * (another merchant, an earlier top-up): first seen within RECYCLED_HOLD_MS of the latest such
 * top-up's expiry, or from a sender seen on any of them. Sandbox addresses are never reused.
 */
async function fromPreviousHolder(tx: Tx, t: Topup, transfer: Transfer, firstSeenAt: Date): Promise<boolean> {
  if (t.environment !== "production") return false;
  const others = { network: t.network, environment: "production" as const, address: t.address, merchantId: { not: t.merchantId }, createdAt: { lt: t.createdAt } };
  const previous = await tx.topup.findFirst({ where: others, orderBy: { createdAt: "desc" }, select: { expiresAt: true } });
  if (!previous) return false;
  if (firstSeenAt.getTime() < previous.expiresAt.getTime() + RECYCLED_HOLD_MS) return true;
  if (!transfer.from) return false;
  const seen = await tx.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM topup_transfers x JOIN topups p ON p.id = x.topup_id
    WHERE p.network = ${t.network} AND p.environment = 'production' AND p.address = ${t.address}
      AND p.merchant_id <> ${t.merchantId} AND p.created_at < ${t.createdAt} AND x.from_address = ${transfer.from}
    LIMIT 1`;
  return seen.length > 0;
}

/**
 * A row recorded before notices carried a log index, for the transaction of `transfer`, to the
 * same top-up and of the same amount: it is this transfer (a row per transaction was all there
 * was), so it takes the log index and keeps its first sighting and decision.
 */
async function claimLegacy(tx: Tx, t: Topup, transfer: Transfer) {
  const legacy = await tx.topupTransfer.findFirst({ where: { network: t.network, txHash: transfer.txHash, logIndex: LEGACY_LOG_INDEX, topupId: t.id, amount: transfer.amount } });
  if (!legacy) return null;
  return tx.topupTransfer.update({ where: { network_txHash_logIndex: { network: t.network, txHash: transfer.txHash, logIndex: LEGACY_LOG_INDEX } }, data: { logIndex: transfer.logIndex } });
}

/**
 * A transfer reported to a top-up's address, decided once under the top-up's lock: pending until
 * it has the network's confirmations (another asset is held at once), then credited or held.
 * `before` runs first in the transaction (a custody notice records its id there).
 */
export async function takeTransfer(topupId: string, transfer: Transfer, before?: (tx: Tx) => Promise<void>): Promise<TransferOutcome> {
  let outcome: TransferOutcome = { credited: false };
  let decided = false;
  let environment: Environment = "production";
  await transition({
    name: "topupTransfer",
    before,
    load: (tx) => lockRow(tx, "topups", topupId, () => tx.topup.findUnique({ where: { id: topupId } })),
    ledger: (t) => ({ merchantId: t.merchantId, environment: t.environment, shopId: null }),
    apply: async (tx, t) => {
      const network = t.network as CryptoNetwork;
      environment = t.environment;
      const key = { network_txHash_logIndex: { network: t.network, txHash: transfer.txHash, logIndex: transfer.logIndex } };
      const known = (await tx.topupTransfer.findUnique({ where: key })) ?? (await claimLegacy(tx, t, transfer));
      // Already decided (a repeated report): nothing more.
      if (known && known.status !== "pending") {
        if (known.status === "held") outcome = { credited: false, held: known.holdReason as HoldReason };
        return null;
      }
      const confirmations = Math.max(known?.confirmations ?? 0, transfer.confirmations);
      const firstSeenAt = known?.firstSeenAt ?? new Date();
      const reported = { asset: transfer.asset, address: transfer.address, fromAddress: transfer.from, amount: transfer.amount, amountUsd: transfer.amountUsd, confirmations };
      const write = (status: "pending" | "credited" | "held", holdReason: HoldReason | null = null) => {
        const data = { ...reported, status, holdReason, decidedAt: status === "pending" ? null : new Date() };
        // The owner is set once: a later report never moves a transfer to another top-up.
        const create = { ...data, network: t.network, txHash: transfer.txHash, logIndex: transfer.logIndex, topupId: t.id, merchantId: t.merchantId, environment: t.environment, firstSeenAt };
        return tx.topupTransfer.upsert({ where: key, create, update: data });
      };
      if (transfer.asset === t.asset && confirmations < CONFIRMATIONS[network]) {
        await write("pending");
        if (t.status === "awaiting_funds") await tx.topup.update({ where: { id: t.id }, data: { confirmations: Math.max(t.confirmations, confirmations) } });
        return null;
      }
      decided = true;
      const hold = holdFor(t, transfer, firstSeenAt, transfer.asset === t.asset && (await fromPreviousHolder(tx, t, transfer, firstSeenAt)));
      if (hold) {
        await write("held", hold);
        outcome = { credited: false, held: hold };
        return null;
      }
      await write("credited");
      const row = await tx.topup.update({ where: { id: t.id }, data: { status: "credited", creditedUsd: transfer.amountUsd, txHash: transfer.txHash, logIndex: transfer.logIndex, confirmations, creditedAt: new Date() } });
      outcome = { credited: true };
      return { result: row, postings: [topupCredited(transfer.amountUsd)] };
    },
  });
  // After commit: an operator must look at money that arrived and was not credited.
  if (decided && outcome.held) log[environment === "production" ? "error" : "info"]({ topup: topupId, txHash: transfer.txHash, logIndex: transfer.logIndex, asset: transfer.asset, amount: transfer.amount, reason: outcome.held }, "transfer to a top-up address held for review (not credited)");
  return outcome;
}

/**
 * A custody deposit notice: the top-up the transfer was first recorded for, else the one whose
 * address received it (the latest one given that address; EVM addresses compared without regard
 * to case); with neither, held (unassigned_address, invalid_address). A transfer of another
 * asset than the top-up's is held for review and the notice refused: never credited 1:1.
 */
export async function applyCustodyNotice(
  n: { address: string; asset: string; network: CryptoNetwork; txHash: string; logIndex: number; from: string; amount: string; confirmations: number },
  before?: (tx: Tx) => Promise<void>,
): Promise<TransferOutcome> {
  const evm = n.network !== "TRON";
  const address = evm ? n.address.toLowerCase() : n.address;
  // Stablecoin units (up to 6 decimals) to USD cents, rounded down: we never credit more than arrived.
  const amountUsd = decimalToMinorDown(n.amount, "USD");
  const from = evm ? n.from.toLowerCase() : n.from;
  const transfer = { asset: n.asset.toUpperCase(), address: n.address, txHash: n.txHash, logIndex: n.logIndex, from, amount: n.amount, amountUsd, confirmations: n.confirmations };
  if (!isValidAddress(n.network, address)) return holdUnclaimed(n.network, transfer, "invalid_address", before);
  // A later report of a known transfer goes to the top-up it was recorded for, even if the address
  // was given to another top-up since; one recorded with none stays as it was held.
  const known = await db().topupTransfer.findUnique({ where: { network_txHash_logIndex: { network: n.network, txHash: n.txHash, logIndex: n.logIndex } }, select: { topupId: true } });
  if (known && known.topupId === null) return holdUnclaimed(n.network, transfer, "unassigned_address", before);
  const t = known?.topupId
    ? await db().topup.findUnique({ where: { id: known.topupId } })
    : await db().topup.findFirst({
        where: { network: n.network, environment: "production", address: evm ? { equals: address, mode: "insensitive" } : address },
        orderBy: { createdAt: "desc" },
      });
  if (!t) return holdUnclaimed(n.network, transfer, "unassigned_address", before);
  if (transfer.asset !== t.asset) {
    // Held (visible), but the notice itself is refused and not recorded as applied.
    await takeTransfer(t.id, transfer);
    throw new AppError("invalid_request", `The transfer is ${transfer.asset}; top-up ${t.id} takes ${t.asset} only: not credited, held for review.`, { param: "asset", details: { expected: t.asset, held: "asset_mismatch" } });
  }
  return takeTransfer(t.id, transfer, before);
}

/**
 * A transfer no top-up can take (to an address never given, or to no address of the network):
 * recorded once, held for an operator with no top-up or merchant, the notice id in the same
 * transaction. Custody notices are production's. Already recorded: answered as recorded.
 */
async function holdUnclaimed(network: CryptoNetwork, transfer: Transfer, reason: "unassigned_address" | "invalid_address", before?: (tx: Tx) => Promise<void>): Promise<TransferOutcome> {
  const { inserted, held } = await db().$transaction(async (tx) => {
    await before?.(tx);
    const row = { network, txHash: transfer.txHash, logIndex: transfer.logIndex, topupId: null, merchantId: null, environment: "production" as const, asset: transfer.asset, address: transfer.address, fromAddress: transfer.from, amount: transfer.amount, amountUsd: transfer.amountUsd, confirmations: transfer.confirmations, status: "held", holdReason: reason, decidedAt: new Date() };
    // skipDuplicates: five reports at once record it once.
    if ((await tx.topupTransfer.createMany({ data: [row], skipDuplicates: true })).count === 1) return { inserted: true, held: reason as HoldReason };
    const known = await tx.topupTransfer.findUniqueOrThrow({ where: { network_txHash_logIndex: { network, txHash: transfer.txHash, logIndex: transfer.logIndex } }, select: { status: true, holdReason: true } });
    return { inserted: false, held: known.status === "held" ? (known.holdReason as HoldReason) : undefined };
  });
  // After commit: money arrived that no merchant is credited with.
  if (inserted) log.error({ network, address: transfer.address, txHash: transfer.txHash, logIndex: transfer.logIndex, asset: transfer.asset, amount: transfer.amount, reason }, "transfer to an address no top-up holds, held for review (not credited)");
  return held ? { credited: false, held } : { credited: false };
}

/** Sandbox: a confirmed transfer of `amount` USD (the top-up's asset) to the top-up's address. */
