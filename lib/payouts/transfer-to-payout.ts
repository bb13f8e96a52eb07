// POST /me/payout/transfer: USD from the pay-in available balance to the payout USD balance,
// both legs in one posting of one database transaction (decisions.md Payouts), through the
// money kernel (lib/ledger/transition.ts).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { bucketTotals } from "@/lib/ledger/post";
import { payoutTransfer } from "@/lib/ledger/recipes";
import { transitionIn } from "@/lib/ledger/transition";
import { getPayoutBalance, type MerchantContext } from "@/lib/payouts/balances";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";

export async function transferToPayout(auth: MerchantContext, input: { amountUsd: unknown }) {
  const amount = parseAmount(input.amountUsd, "USD", "amountUsd");
  const { id: merchantId } = auth.merchant;
  return db().$transaction(async (tx) => {
    const r = await transitionIn(tx, {
      name: "transferToPayout",
      // The transfer row is created by this move: nothing to lock but the ledger.
      load: async () => ({ merchantId, environment: auth.environment }),
      ledger: (scope) => ({ ...scope, shopId: null }),
      apply: async () => {
        const payin = await bucketTotals(tx, merchantId, auth.environment);
        if (payin.available < amount) {
          const available = payin.available > 0n ? payin.available : 0n;
          throw new AppError("balance_insufficient", `The pay-in available balance (${toMajor(available, "USD")} USD) cannot cover ${toMajor(amount, "USD")} USD.`, {
            param: "amountUsd",
            details: { availableUsd: toMajor(available, "USD"), shortfallUsd: toMajor(amount - available, "USD") },
          });
        }
        const transfer = await tx.payoutTransfer.create({ data: { id: newId("payoutTransfer"), merchantId, environment: auth.environment, amountUsd: amount } });
        await bindIdempotency(tx, { resource: "payout_transfer", id: transfer.id });
        return { result: { transfer, payinAvailable: payin.available - amount }, postings: [payoutTransfer(amount)] };
      },
    });
    const { transfer, payinAvailable } = r.result!;
    return {
      transfer: { id: transfer.id, amountUsd: toMajor(amount, "USD"), createdAt: transfer.createdAt.toISOString() },
      payinAvailableUsd: toMajor(payinAvailable, "USD"),
      payoutBalance: await getPayoutBalance(auth, tx),
    };
  });
}
