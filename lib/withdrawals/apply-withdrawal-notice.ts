// The custody provider's notice of a withdrawal's outcome, by our reference (the withdrawal id we
// sent): completed ends it with its txHash, failed returns amount and fee. Only production
// withdrawals go to the provider; anything else under that reference is unknown to it. Through
// the same kernel transitions as the status job and the sandbox, so whichever arrives first wins
// and the others change nothing. `before` records the notice id in the applying transaction.
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { completeWithdrawal, failWithdrawal } from "@/lib/withdrawals/settle-withdrawal";

type Notice = { reference: string } & ({ status: "completed"; txHash: string } | { status: "failed"; reason: string });

export async function applyWithdrawalNotice(n: Notice, before?: (tx: Tx) => Promise<void>): Promise<{ id: string; status: string }> {
  const w = await db().withdrawal.findFirst({ where: { id: n.reference, environment: "production" }, select: { id: true } });
  if (!w) throw new AppError("withdrawal_not_found", `No production withdrawal ${n.reference}.`, { param: "reference" });
  const after = n.status === "completed" ? await completeWithdrawal(w.id, n.txHash, { before }) : await failWithdrawal(w.id, `refused: ${n.reason}`, { before });
  return { id: after.id, status: after.status };
}
