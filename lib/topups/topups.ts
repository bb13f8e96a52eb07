// Crypto top-ups: a deposit address (the operator's pool in production, a synthetic one in the
// sandbox); every transfer the custody provider reports to it is recorded (topup_transfers, one row
// per (network, txHash, logIndex): one chain transaction may carry many transfers, as an
// exchange's batch payout does, each its own row, its own top-up and its own decision) and, once
// confirmed, either credits the payout USD balance 1:1 through the money kernel (recipe
// topupCredited; the first transfer of the top-up's asset, first seen before expiry, at least the
// minimum) or is held for an operator's review (below_minimum, after_first, expired,
// asset_mismatch, recycled_address): never silently dropped. A transfer to an address no top-up
// was given (unassigned_address) or to no address of the network (invalid_address) is recorded
// too, held at once with no top-up: an operator decides. The top-up row is locked for each
// decision, so five notices of one transfer at once decide it once. A transfer stays with the
// top-up its first report found, and a decided one is never decided again.
// Pool addresses are not consumed: a merchant asking again for the same asset and network gets
// its open top-up back, a merchant's own used address is reused for its next top-up, then a
// never-used address is given, and only then another merchant's, ADDRESS_QUARANTINE_MS after its
// top-up expired, longest idle first (late transfers of the previous holder within that land on
// its expired top-up and are held). A customer may pay a saved address much later, so on a
// recycled address a transfer is held (recycled_address), never credited to the new holder, when
// its sender sent to that address under another merchant, or when it is first seen within
// RECYCLED_HOLD_MS of the previous holder's top-up expiring: only the sender tells an old
// customer from a new one, and a new wallet of an old customer is likeliest soon after.
import { createHash, randomBytes } from "node:crypto";
import bs58check from "bs58check";
import { getAddress } from "viem";
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { newId } from "@/lib/platform/ids";
import { decimalToMinorDown, toDecimalString, toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { topupCredited } from "@/lib/ledger/recipes";
import { lockRow, transition } from "@/lib/ledger/transition";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { CONFIRMATIONS, MIN_TOPUP_USD_MINOR, type HoldReason } from "@/lib/topups/schema";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import type { CryptoAsset, CryptoNetwork } from "@/lib/crypto-assets/networks";
import type { Environment, TopupStatus } from "@/lib/generated/prisma/enums";
import type { Topup } from "@/lib/generated/prisma/client";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";

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

/** How long a pool address stays with its last merchant after that top-up expired, before another may get it. */
export const ADDRESS_QUARANTINE_MS = 72 * 3_600_000;
/** After the previous holder's top-up expired, how long every transfer to its recycled address is held. */
export const RECYCLED_HOLD_MS = 30 * 24 * 3_600_000;

export async function createTopup(auth: Owner, body: { asset: CryptoAsset; network: CryptoNetwork }) {
  const id = newId("topup");
  const now = new Date();
  const merchantId = auth.merchant.id;
  const row = await db().$transaction(async (tx) => {
    let address: string;
    if (auth.environment === "sandbox") address = syntheticAddress(body.network);
    else {
      // One request at a time per merchant and network: two at once must not take two addresses.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`topup:${merchantId}:${body.network}`}))`;
      // Asked again while its top-up for this asset and network is open: that one, no new address.
      const open = await tx.topup.findFirst({ where: { merchantId, environment: "production", asset: body.asset, network: body.network, status: "awaiting_funds", expiresAt: { gt: now } }, orderBy: { createdAt: "desc" } });
      if (open) {
        await bindIdempotency(tx, { resource: "topup", id: open.id });
        return open;
      }
      // An address of the pool (SKIP LOCKED: two requests never get the same one): this merchant's
      // own, once its top-up is no longer open; else a never-used one; else one whose top-up
      // expired more than the quarantine ago, the longest idle first (the fewer of its previous
      // holder's customers still pay it, and past RECYCLED_HOLD_MS only known senders are held).
      const quarantined = new Date(now.getTime() - ADDRESS_QUARANTINE_MS);
      const free = await tx.$queryRaw<{ address: string }[]>`
        UPDATE topup_addresses SET topup_id = ${id}
        WHERE address = (
          SELECT a.address FROM topup_addresses a LEFT JOIN topups t ON t.id = a.topup_id
          WHERE a.network = ${body.network}
            AND (a.topup_id IS NULL
              OR (t.merchant_id = ${merchantId} AND t.environment = 'production' AND (t.status <> 'awaiting_funds' OR t.expires_at <= ${now}))
              OR t.expires_at <= ${quarantined})
          ORDER BY (t.merchant_id = ${merchantId}) IS TRUE DESC, a.topup_id IS NULL DESC, t.expires_at NULLS FIRST, a.created_at
          LIMIT 1 FOR UPDATE OF a SKIP LOCKED)
        RETURNING address`;
      if (!free[0]) throw new AppError("topup_address_unavailable", `No ${body.network} deposit address is available right now; try again later.`, { headers: { "Retry-After": "600" } });
      address = free[0].address;
    }
    await bindIdempotency(tx, { resource: "topup", id });
    return tx.topup.create({ data: { id, merchantId, environment: auth.environment, asset: body.asset, network: body.network, address, minAmountUsd: MIN_TOPUP_USD_MINOR[body.network], expiresAt: new Date(now.getTime() + VALID_MS), createdAt: now } });
  });
  return { topup: presentTopup(row) };
}

export async function findOwnedTopup(scope: Owner, id: string): Promise<Topup> {
  const t = await db().topup.findFirst({ where: { id, ...merchantScope(scope) } });
  if (!t) throw new AppError("topup_not_found", `No top-up ${id}.`, { param: "id" });
  return t;
}

export async function getTopup(scope: Owner, id: string) {
  return { topup: presentTopup(await findOwnedTopup(scope, id)) };
}

export async function listTopups(scope: Owner, q: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: TopupStatus }) {
  const base = merchantScope(scope);
  const now = new Date();
  // `expired` is shown, not stored: filter by what a reader sees.
  const status = q.status === "expired" ? { status: "awaiting_funds" as const, expiresAt: { lte: now } } : q.status === "awaiting_funds" ? { status: "awaiting_funds" as const, expiresAt: { gt: now } } : q.status ? { status: q.status } : {};
  const where = { ...base, ...status };
  const { rows, meta } = await pageModel<Topup>(readPage(q), { model: db().topup, name: "topup", where, scope: base });
  return listEnvelope(rows.map(presentTopup), meta);
}

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
export async function simulateTopup(scope: Owner, id: string, amount: unknown) {
  const t = await findOwnedTopup(scope, id);
  const usd = parseAmount(amount, "USD");
  if (usd <= 0n) throw new AppError("amount_invalid", "amount must be greater than zero.", { param: "amount" });
  const txHash = (t.network === "TRON" ? "" : "0x") + createHash("sha256").update(`${t.id}:${randomBytes(8).toString("hex")}`).digest("hex");
  bindOnNextTransition({ resource: "topup", id: t.id });
  await takeTransfer(t.id, { asset: t.asset, address: t.address, txHash, logIndex: 0, from: null, amount: toDecimalString(usd, "USD"), amountUsd: usd, confirmations: CONFIRMATIONS[t.network as CryptoNetwork] });
  return { topup: presentTopup((await db().topup.findUnique({ where: { id: t.id } }))!) };
}

/** Operator CLI: addresses for the production pool (checked; already known ones skipped). */
export async function loadTopupAddresses(network: CryptoNetwork, addresses: string[]): Promise<{ added: number; skipped: number }> {
  let added = 0;
  for (const raw of addresses) {
    const given = raw.trim();
    if (!given) continue;
    if (!isValidAddress(network, given)) throw new AppError("invalid_request", `${given} is not a valid ${network} address.`, { param: "address" });
    // EVM addresses in one spelling (EIP-55), so one address is never loaded twice in two cases.
    const address = network === "TRON" ? given : getAddress(given);
    const r = await db().topupAddress.createMany({ data: [{ address, network }], skipDuplicates: true });
    added += r.count;
  }
  return { added, skipped: addresses.filter((a) => a.trim()).length - added };
}
