// Deposit notices that are money but cannot be credited as they stand, held (recorded once,
// with their notice id, in the transaction that decides it), never dropped. Two reasons:
// - clabe_unknown: no usable account has the CLABE yet. The provider may have issued it and lost
//   its answer to us (our row is still `provisioning`), and the end user may already have paid
//   into it. Applied, through the same receiveDeposit as any notice, as soon as an account with
//   that CLABE becomes active (the provisioning request retried, or the sweep of
//   lib/deposits/sweep-provisioning.ts).
// - pending_mismatch: a credited report whose currency or amount differs from the pending report
//   of the same transfer (receive-deposit.ts). Which figure is true is the provider's to say and
//   an operator's to decide: never applied on its own; the deposit stays pending, and a credited
//   report that agrees with it still credits. Both figures are kept and listed (`deposit:held`).
import { db, type Tx } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { newId } from "@/lib/platform/ids";
import { toDecimalString } from "@/lib/money/amount";
import { isCurrency } from "@/lib/money/currency";
import { depositFromNotice, receiveDeposit, type Disagreement } from "@/lib/deposits/receive-deposit";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RecordNotice } from "@/lib/providers/notice-pipeline";
import type { DepositNotice as Notice } from "@/lib/deposits/schema";

export const HOLD_REASONS = ["clabe_unknown", "pending_mismatch"] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

const mismatchFields = (d: Disagreement) => ({ reason: "pending_mismatch" as const, depositId: d.depositId, pendingAmount: d.pending.amount, pendingCurrency: d.pending.currency });

/** receiveDeposit's `hold` for a provider's notice: its credited report held beside the pending one. */
export function holdDisagreement(provider: string, notice: Notice): (tx: Tx, d: Disagreement) => Promise<void> {
  return async (tx, d) => {
    await tx.heldDeposit.create({ data: { id: newId("heldDeposit"), provider, clabe: notice.clabe, noticeId: notice.noticeId, notice: notice as object, ...mismatchFields(d) } });
  };
}

/** After commit: the operator's line for a held disagreement (both figures). */
export function logDisagreement(where: Record<string, string>, d: Disagreement): void {
  log.error(
    { ...where, deposit: d.depositId, pending: { amount: d.pending.amount.toString(), currency: d.pending.currency }, notice: { amount: d.notice.amount.toString(), currency: d.notice.currency } },
    "credited deposit report disagrees with its pending report (currency or amount): not credited, held for an operator",
  );
}

/** Holds `notice` (its id recorded in the same transaction, so a replay holds nothing twice). */
export async function holdDeposit(provider: string, notice: Notice, record: RecordNotice): Promise<void> {
  await db().$transaction(async (tx) => {
    await record(tx);
    await tx.heldDeposit.create({ data: { id: newId("heldDeposit"), provider, clabe: notice.clabe, noticeId: notice.noticeId, notice: notice as object, reason: "clabe_unknown" } });
  });
  log.warn({ provider, clabe: notice.clabe, noticeId: notice.noticeId }, "deposit notice for a CLABE no usable account has yet; held until one becomes active");
}

/**
 * Applies the held notices of active accounts: those of `accountId`, or of every account (the
 * sweep's catch-up after a crash between activation and apply). Idempotent: a deposit is one
 * per (account, trackingKey), and a held notice is marked applied with its deposit.
 */
export async function applyHeldDeposits(accountId?: string): Promise<number> {
  const held = await db().$queryRaw<Array<{ id: string; account_id: string; notice: Notice }>>`
    SELECT h.id, a.id AS account_id, h.notice FROM held_deposits h
    JOIN deposit_accounts a ON a.clabe = h.clabe AND a.provider = h.provider AND a.environment = 'production' AND a.status <> 'provisioning'
    WHERE h.applied_at IS NULL AND h.reason = 'clabe_unknown' ${accountId ? Prisma.sql`AND a.id = ${accountId}` : Prisma.empty}
    ORDER BY h.received_at LIMIT 200`;
  let applied = 0;
  for (const h of held) {
    try {
      const r = await receiveDeposit(h.account_id, depositFromNotice(h.notice), {
        inTransaction: async (tx) => void (await tx.heldDeposit.updateMany({ where: { id: h.id }, data: { appliedAt: new Date() } })),
        // Its account is active now, and it disagrees with a pending report there: still held,
        // now for an operator (the same row, its id already recorded).
        hold: async (tx, d) => void (await tx.heldDeposit.updateMany({ where: { id: h.id }, data: { ...mismatchFields(d), appliedAt: null } })),
      });
      if (r.held) {
        logDisagreement({ heldDeposit: h.id, account: h.account_id }, r.held);
        continue;
      }
      await db().heldDeposit.updateMany({ where: { id: h.id }, data: { depositId: r.deposit.id, appliedAt: new Date() } });
      applied++;
    } catch (err) {
      log.warn({ heldDeposit: h.id, account: h.account_id, err: err instanceof Error ? err.message : String(err) }, "a held deposit could not be applied yet; tried again by the sweep");
    }
  }
  return applied;
}

const figure = (amount: bigint | string, currency: string) =>
  // Major units where the currency is ours; a notice's unknown currency is shown as it came.
  isCurrency(currency) ? { amount: toDecimalString(BigInt(amount), currency), currency } : { amount: String(amount), currency, minorUnits: true as const };

/** The held notices not applied (oldest first), for the operator: why, and every figure involved. */
export async function listHeldDeposits(opts: { reason?: HoldReason; limit?: number } = {}) {
  const rows = await db().heldDeposit.findMany({
    where: { appliedAt: null, ...(opts.reason ? { reason: opts.reason } : {}) },
    orderBy: { receivedAt: "asc" },
    take: opts.limit ?? 200,
  });
  return rows.map((h) => {
    const n = h.notice as Notice;
    return {
      id: h.id,
      reason: h.reason,
      provider: h.provider,
      clabe: h.clabe,
      noticeId: h.noticeId,
      trackingKey: n.trackingKey,
      notice: figure(n.amount, n.currency),
      pending: h.pendingAmount !== null && h.pendingCurrency !== null ? figure(h.pendingAmount, h.pendingCurrency) : null,
      depositId: h.depositId,
      receivedAt: h.receivedAt.toISOString(),
    };
  });
}
