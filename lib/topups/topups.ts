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
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { newId } from "@/lib/platform/ids";
import { toDecimalString, toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { topupCredited } from "@/lib/ledger/recipes";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { CONFIRMATIONS, MIN_TOPUP_USD_MINOR } from "@/lib/topups/schema";
import { isValidAddress } from "@/lib/crypto-assets/addresses";
import type { CryptoAsset, CryptoNetwork } from "@/lib/crypto-assets/networks";
import type { TopupStatus } from "@/lib/generated/prisma/enums";
import type { Topup } from "@/lib/generated/prisma/client";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";
import { takeTransfer } from "@/lib/topups/transfers";

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
