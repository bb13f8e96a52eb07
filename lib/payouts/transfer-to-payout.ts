// POST /me/payout/transfer: USD from the pay-in available balance to the payout USD balance,
// both legs in one posting of one database transaction (decisions.md Payouts).
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { toMajor } from "@/lib/money/amount";
import { bucketTotals, lockMerchantLedger, post } from "@/lib/ledger/post";
import { getPayoutBalance, type MerchantContext } from "@/lib/payouts/balances";
import { parseAmount } from "@/lib/payouts/send-payout";
import { bindIdempotency } from "@/lib/http/idempotency";

export async function transferToPayout(auth: MerchantContext, input: { amountUsd: unknown }) {
  const amount = parseAmount(input.amountUsd, "USD", "amountUsd");
  const { id: merchantId } = auth.merchant;
  return db().$transaction(async (tx) => {
    await lockMerchantLedger(tx, merchantId, auth.environment);
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
    await post(tx, {
      merchantId,
      environment: auth.environment,
      kind: "payout_transfer",
      legs: [
        { account: "available", currency: "USD", amount: -amount },
        { account: "payout_available", currency: "USD", amount },
      ],
    });
    return {
      transfer: { id: transfer.id, amountUsd: toMajor(amount, "USD"), createdAt: transfer.createdAt.toISOString() },
      payinAvailableUsd: toMajor(payin.available - amount, "USD"),
      payoutBalance: await getPayoutBalance(auth, tx),
    };
  });
}
