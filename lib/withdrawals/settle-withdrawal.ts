// A processing withdrawal's end, through the money kernel: completed (the amount leaves the books,
// the fee is earned; recipe withdrawalCompleted, `withdrawal.completed`) or failed (amount and fee
// back to available; withdrawalFailed, `withdrawal.failed`). Both are idempotent: a second
// outcome for an ended withdrawal changes nothing (a custody notice or status check repeated).
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { withdrawalCompleted, withdrawalFailed } from "@/lib/ledger/recipes";
import { lockRow, transition } from "@/lib/ledger/transition";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import type { Withdrawal } from "@/lib/generated/prisma/client";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";


export async function findOwnedWithdrawal(scope: Owner, id: string): Promise<Withdrawal> {
  const w = await db().withdrawal.findFirst({ where: { id, ...merchantScope(scope) } });
  if (!w) throw new AppError("withdrawal_not_found", `No withdrawal ${id}.`, { param: "id" });
  return w;
}

/** refuseEnded: an ended withdrawal is an error (sandbox simulate); before: runs first in the transaction (a notice records its id). */
type EndOptions = { refuseEnded?: boolean; before?: (tx: Tx) => Promise<void> };

function end(id: string, outcome: { kind: "completed"; txHash: string } | { kind: "failed"; reason: string }, opts: EndOptions = {}) {
  return transition({
    name: outcome.kind === "completed" ? "withdrawalCompleted" : "withdrawalFailed",
    before: opts.before,
    load: (tx) => lockRow(tx, "withdrawals", id, () => tx.withdrawal.findUnique({ where: { id } })),
    missing: () => new AppError("withdrawal_not_found", `No withdrawal ${id}.`, { param: "id" }),
    ledger: (w) => ({ merchantId: w.merchantId, environment: w.environment, shopId: null }),
    status: (w) => w.status,
    from: ["processing"],
    refuse: (w) => (opts.refuseEnded ? new AppError("invalid_request", `Withdrawal ${w.id} is already ${w.status}.`, { details: { status: w.status } }) : undefined),
    apply: async (tx, w) => {
      const money = { amountUsd: w.amountUsd, feeUsd: w.feeUsd };
      const row =
        outcome.kind === "completed"
          ? await tx.withdrawal.update({ where: { id }, data: { status: "completed", txHash: outcome.txHash, completedAt: new Date(), checkAfter: null } })
          : await tx.withdrawal.update({ where: { id }, data: { status: "failed", failureReason: outcome.reason, checkAfter: null } });
      const presented = presentWithdrawal(row);
      return {
        result: row,
        postings: [outcome.kind === "completed" ? withdrawalCompleted(money) : withdrawalFailed(money)],
        events: [{ type: outcome.kind === "completed" ? "withdrawal.completed" : "withdrawal.failed", object: presented }],
      };
    },
  });
}

export async function completeWithdrawal(id: string, txHash: string, opts: EndOptions = {}) {
  const r = await end(id, { kind: "completed", txHash }, opts);
  return r.changed ? r.result! : r.row!;
}

export async function failWithdrawal(id: string, reason: string, opts: EndOptions = {}) {
  const r = await end(id, { kind: "failed", reason: reason.slice(0, 200) }, opts);
  return r.changed ? r.result! : r.row!;
}

/** Sandbox: the custody outcome on demand (a synthetic, well-formed txHash for the network). */
export async function simulateWithdrawal(scope: Owner, id: string, action: "completed" | "failed") {
  const w = await findOwnedWithdrawal(scope, id);
  bindOnNextTransition({ resource: "withdrawal", id: w.id });
  if (action === "failed") return { withdrawal: presentWithdrawal(await failWithdrawal(w.id, "simulated_failure", { refuseEnded: true })) };
  const { randomBytes } = await import("node:crypto");
  const hex = randomBytes(32).toString("hex");
  return { withdrawal: presentWithdrawal(await completeWithdrawal(w.id, w.network === "TRON" ? hex : `0x${hex}`, { refuseEnded: true })) };
}
