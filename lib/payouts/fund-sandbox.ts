// POST /me/payout/fund-sandbox: test money into the sandbox payout balance, from a counter
// account so the ledger still balances.
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { toMajor } from "@/lib/money/amount";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { payoutBalances, presentBalances, type MerchantContext } from "@/lib/payouts/balances";
import { payoutCurrencies } from "@/lib/payouts/methods";
import { parseAmount } from "@/lib/payouts/send-payout";

export async function fundSandbox(auth: MerchantContext, input: { currency: string; amount: unknown }) {
  // Sandbox only: the gate answers fund_sandbox_only elsewhere (lib/auth/policy.ts, fundSandbox).
  const currency = input.currency.toUpperCase();
  const allowed = payoutCurrencies(auth.environment);
  if (!allowed.includes(currency)) throw new AppError("unsupported_currency", `Payout balances exist in ${allowed.join(", ")}.`, { param: "currency", details: { currencies: allowed } });
  const amount = parseAmount(input.amount, currency);
  return db().$transaction(async (tx) => {
    await lockMerchantLedger(tx, auth.merchant.id, auth.environment);
    await post(tx, {
      merchantId: auth.merchant.id,
      environment: auth.environment,
      kind: "payout_sandbox_funding",
      legs: [
        { account: "sandbox_funding", currency, amount: -amount },
        { account: "payout_available", currency, amount },
      ],
    });
    return { currency, amount: toMajor(amount, currency), balances: presentBalances(await payoutBalances(tx, auth.merchant.id, auth.environment)) };
  });
}
