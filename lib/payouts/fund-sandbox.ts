// POST /me/payout/fund-sandbox: test money into the sandbox payout balance, from a counter
// account so the ledger still balances (through the money kernel, lib/ledger/transition.ts).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { sandboxFunding } from "@/lib/ledger/recipes";
import { transitionIn } from "@/lib/ledger/transition";
import { payoutBalances, presentBalances, type MerchantContext } from "@/lib/payouts/balances";
import { payoutCurrencies } from "@/lib/payouts/methods";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { merchantScope } from "@/lib/platform/scope";

export async function fundSandbox(auth: MerchantContext, input: { currency: string; amount: unknown }) {
  // Sandbox only: the gate answers fund_sandbox_only elsewhere (lib/platform/auth/policy.ts, fundSandbox).
  const currency = input.currency.toUpperCase();
  const allowed = payoutCurrencies(auth.environment);
  if (!allowed.includes(currency)) throw new AppError("unsupported_currency", `Payout balances exist in ${allowed.join(", ")}.`, { param: "currency", details: { currencies: allowed } });
  const amount = parseAmount(input.amount, currency);
  return db().$transaction(async (tx) => {
    await transitionIn(tx, {
      name: "fundSandbox",
      load: async () => (merchantScope(auth)),
      ledger: (scope) => ({ ...scope, shopId: null }),
      apply: async (tx) => {
        await bindIdempotency(tx, { resource: "payout_funding", id: currency });
        return { result: true, postings: [sandboxFunding(currency, amount)] };
      },
    });
    return { currency, amount: toMajor(amount, currency), balances: presentBalances(await payoutBalances(tx, auth.merchant.id, auth.environment)) };
  });
}
