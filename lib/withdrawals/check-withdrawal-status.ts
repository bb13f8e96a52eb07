// The withdrawal status job: production withdrawals handed to the custody provider whose outcome
// we do not know (an unknown answer, or a pending one) are asked about by our reference until the
// provider knows: completed ends them, failed returns amount and fee, not found hands them over
// again under the same reference (the provider never got them; it de-duplicates by reference, so
// this cannot send twice). Any other answer (a timeout, a 5xx, a 401 or 403 on the lookup, a bare
// 404) is unknown: asked again with back-off and, once it has stayed unknown for UNKNOWN_ALERT_MS,
// raised to an operator (an error log, `attention_at` on the row, the lp_withdrawals_need_attention
// gauge), never decided: the crypto may have left. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so any number
// of instances can run it at once.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { custodyConfigured, withdrawalStatus } from "@/lib/withdrawals/custody";
import { dispatchWithdrawal, nextCheck } from "@/lib/withdrawals/request-withdrawal";
import { completeWithdrawal, failWithdrawal } from "@/lib/withdrawals/settle-withdrawal";

const LEASE_MS = 30_000;
/** How long a handed-over withdrawal's status may stay unknown before an operator is told. */
export const UNKNOWN_ALERT_MS = 60 * 60_000;

export async function checkWithdrawalStatuses(opts: { now?: Date; limit?: number } = {}): Promise<{ checked: number; settled: number; raised: number }> {
  if (!custodyConfigured()) return { checked: 0, settled: 0, raised: 0 };
  const now = opts.now ?? new Date();
  const claimed = await db().$queryRaw<{ id: string }[]>`
    UPDATE withdrawals SET check_after = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id IN (
      SELECT id FROM withdrawals
      WHERE status = 'processing' AND environment = 'production' AND (check_after IS NULL OR check_after <= ${now})
      ORDER BY check_after NULLS FIRST LIMIT ${opts.limit ?? 50} FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  let settled = 0;
  let raised = 0;
  for (const { id } of claimed) {
    const w = await db().withdrawal.findUnique({ where: { id } });
    if (!w || w.status !== "processing") continue;
    try {
      const s = await withdrawalStatus(w);
      let after = w;
      if (s.kind === "completed") after = await completeWithdrawal(id, s.txHash);
      else if (s.kind === "refused") after = await failWithdrawal(id, `refused: ${s.reason}`);
      else if (s.kind === "not_found") after = await dispatchWithdrawal(w);
      else {
        const since = w.dispatchedAt ?? w.createdAt;
        const raise = s.kind === "unknown" && !w.attentionAt && now.getTime() - since.getTime() >= UNKNOWN_ALERT_MS;
        await db().withdrawal.updateMany({ where: { id, status: "processing" }, data: { checkAfter: nextCheck(w, new Date(), s.kind === "pending" ? 5_000 : 1_000), ...(raise ? { attentionAt: now } : {}) } });
        if (raise) {
          raised++;
          log.error({ withdrawal: id, reason: s.reason, unknownSince: since.toISOString() }, "withdrawal status unknown for too long: an operator must look (still asking; never failed on an unknown answer)");
        } else if (s.kind === "unknown") log.warn({ withdrawal: id, reason: s.reason }, "withdrawal status still unknown; asking again later");
      }
      if (after.status !== "processing") settled++;
    } catch (err) {
      log.warn({ withdrawal: id, err: err instanceof Error ? err.message : String(err) }, "withdrawal status check failed; the lease lets it be retried");
    }
  }
  return { checked: claimed.length, settled, raised };
}
