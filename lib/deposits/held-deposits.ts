// Deposits to a CLABE that no usable account has yet. The provider may have issued the CLABE
// and lost its answer to us (our row is still `provisioning`, its CLABE unknown to us), and the
// end user may already have been told it by the provider and paid into it. Such a notice is
// money: it is held (recorded once, with its notice id, in one transaction) and applied, through
// the same receiveDeposit as any notice, as soon as an account with that CLABE becomes active
// (the provisioning request retried, or the sweep of lib/deposits/sweep-provisioning.ts).
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { newId } from "@/lib/platform/ids";
import { depositFromNotice, receiveDeposit } from "@/lib/deposits/receive-deposit";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RecordNotice } from "@/lib/providers/notice-pipeline";
import type { DepositNotice as Notice } from "@/lib/deposits/schema";

/** Holds `notice` (its id recorded in the same transaction, so a replay holds nothing twice). */
export async function holdDeposit(provider: string, notice: Notice, record: RecordNotice): Promise<void> {
  await db().$transaction(async (tx) => {
    await record(tx);
    await tx.heldDeposit.create({ data: { id: newId("heldDeposit"), provider, clabe: notice.clabe, noticeId: notice.noticeId, notice: notice as object } });
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
    WHERE h.applied_at IS NULL ${accountId ? Prisma.sql`AND a.id = ${accountId}` : Prisma.empty}
    ORDER BY h.received_at LIMIT 200`;
  let applied = 0;
  for (const h of held) {
    try {
      const r = await receiveDeposit(
        h.account_id,
        depositFromNotice(h.notice),
        { inTransaction: async (tx) => void (await tx.heldDeposit.updateMany({ where: { id: h.id }, data: { appliedAt: new Date() } })) },
      );
      await db().heldDeposit.updateMany({ where: { id: h.id }, data: { depositId: r.deposit.id, appliedAt: new Date() } });
      applied++;
    } catch (err) {
      log.warn({ heldDeposit: h.id, account: h.account_id, err: err instanceof Error ? err.message : String(err) }, "a held deposit could not be applied yet; tried again by the sweep");
    }
  }
  return applied;
}
