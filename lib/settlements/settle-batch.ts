// A closed batch's outcome, through the money kernel: paid (the custody provider's transfer went
// out: the net leaves the books, the fee is earned; recipe settlementPaid) or failed (the gross
// goes back to `available`; settlementFailed). Both render the receipt again. A second payment is
// 409 settlement_already_paid; a failed batch changes no more.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { settlementFailed, settlementPaid, type Posting } from "@/lib/ledger/recipes";
import type { Tx } from "@/lib/platform/db";
import { lockRow, transition } from "@/lib/ledger/transition";
import { presentSettlement } from "@/lib/settlements/present";
import { requireWholeMerchant } from "@/lib/settlements/whole-merchant";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { Settlement } from "@/lib/generated/prisma/client";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";

/** A credential acting on a batch: its shop, if it is bound to one. */
type ActingScope = Owner & { shop: { id: string } | null };

export async function findOwnedSettlement(scope: Owner, id: string): Promise<Settlement> {
  const s = await db().settlement.findFirst({ where: { id, ...merchantScope(scope) } });
  if (!s) throw new AppError("settlement_not_found", `No settlement ${id}.`, { param: "id" });
  return s;
}

function refusal(s: Settlement) {
  if (s.status === "paid") return new AppError("settlement_already_paid", `Settlement ${s.id} was paid already (txHash ${s.txHash}).`, { details: { status: s.status, txHash: s.txHash } });
  return new AppError("invalid_request", `Settlement ${s.id} failed; its amount is back in the available balance.`, { details: { status: s.status } });
}

const money = (s: Settlement) => ({ amountUsd: s.netUsd, feeUsd: s.feeUsd });

/**
 * A closed batch moved to paid or failed: the one lock, ledger and status rule both share.
 * `payments`: the change also writes the batch's payments (failing returns them to the next
 * batch), so their rows are locked with the batch's, in id order, before the kernel takes the
 * ledger (its lock order): a refund holding one of them while it waits for the ledger would
 * deadlock with a batch that held the ledger while it waited for that row.
 */
function settleOp(id: string, name: string, apply: (tx: Tx, s: Settlement) => Promise<{ result: ReturnType<typeof presentSettlement>; postings: Posting[] }>, opts: { payments?: boolean } = {}) {
  return transition({
    name,
    load: async (tx) => {
      const s = await lockRow(tx, "settlements", id, () => tx.settlement.findUnique({ where: { id } }));
      // Only this batch's close set their batch id, and the batch's row is ours now: the set is final.
      if (s && opts.payments && s.status === "closed") {
        await tx.$queryRaw`SELECT id FROM transactions WHERE settlement_status = 'settled' AND merchant_id = ${s.merchantId} AND environment = ${s.environment}::"Environment" AND settlement_batch_id = ${s.id} ORDER BY id FOR UPDATE`;
      }
      return s;
    },
    missing: () => new AppError("settlement_not_found", `No settlement ${id}.`, { param: "id" }),
    ledger: (s) => ({ merchantId: s.merchantId, environment: s.environment, shopId: null }),
    status: (s) => s.status,
    from: ["closed"],
    refuse: (s) => refusal(s),
    apply,
  });
}

export async function markSettlementPaid(id: string, txHash: string) {
  const hash = txHash.trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hash)) throw new AppError("invalid_request", "txHash must be a transaction hash (64 hex digits, 0x-prefixed on EVM networks).", { param: "txHash" });
  const out = await settleOp(id, "settlementPaid", async (tx, s) => {
    const row = await tx.settlement.update({ where: { id: s.id }, data: { status: "paid", txHash: hash, paidAt: new Date(), receiptStale: true } });
    return { result: presentSettlement(row), postings: [settlementPaid(money(s))] };
  });
  return { settlement: out.result! };
}

export async function failSettlement(id: string, reason: string) {
  const out = await settleOp(id, "settlementFailed", async (tx, s) => {
    const row = await tx.settlement.update({ where: { id: s.id }, data: { status: "failed", failureReason: reason.slice(0, 200), failedAt: new Date(), receiptStale: true } });
    // Its payments may be swept again by the next batch. (Scoped as the sweep that batched them
    // was: the settlement index, led by settlement_status, finds them; the batch id alone has none.)
    await tx.transaction.updateMany({ where: { settlementStatus: "settled", merchantId: s.merchantId, environment: s.environment, settlementBatchId: s.id }, data: { settlementBatchId: null } });
    return { result: presentSettlement(row), postings: [settlementFailed(money(s))] };
  }, { payments: true });
  return { settlement: out.result! };
}

/** Sandbox: the custody outcome on demand (a synthetic, well-formed txHash for the network). */
export async function simulateSettlement(scope: ActingScope, id: string, action: "paid" | "failed") {
  const s = await findOwnedSettlement(scope, id);
  // Paid or failed, the merchant's whole batch moves: not for one shop's key beside others.
  await requireWholeMerchant(scope);
  bindOnNextTransition({ resource: "settlement", id: s.id });
  if (action === "failed") return failSettlement(s.id, "simulated_failure");
  const { randomBytes } = await import("node:crypto");
  const hex = randomBytes(32).toString("hex");
  return markSettlementPaid(s.id, s.network === "TRON" ? hex : `0x${hex}`);
}
