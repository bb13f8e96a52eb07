// GET /me/payout/swap (quote) and POST /me/payout/swap (execute): USD to a local currency
// inside the payout balance (decisions.md Payouts). A quote fixes the rate, the 0.50% fee and
// the local amount for 60 s; executing locks the quote row, so it runs exactly once.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { percentOf, toMajor } from "@/lib/money/amount";
import { usdToLocal } from "@/lib/money/fx";
import { rateFor } from "@/lib/money/rates";
import { payoutSwap } from "@/lib/ledger/recipes";
import { lockRow, transitionIn } from "@/lib/ledger/transition";
import { payoutBalances, presentBalances, type MerchantContext } from "@/lib/payouts/balances";
import { payoutCurrencies } from "@/lib/payouts/methods";
import { parseAmount } from "@/lib/money/parse-amount";
import type { PayoutSwap } from "@/lib/generated/prisma/client";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { merchantScope } from "@/lib/platform/scope";

export const SWAP_FEE_BP = 50n;
export const QUOTE_TTL_MS = 60_000;

export function present(q: PayoutSwap) {
  return {
    quoteId: q.id,
    from: "USD" as const,
    to: q.toCurrency,
    amountUsd: toMajor(q.amountUsd, "USD"),
    rate: Number(q.rate.toString()),
    amountLocal: toMajor(q.amountLocal, q.toCurrency),
    feeUsd: toMajor(q.feeUsd, "USD"),
  };
}

export async function quoteSwap(auth: MerchantContext, query: { currency: string; amountUsd: string }) {
  const currency = query.currency.toUpperCase();
  const targets = payoutCurrencies(auth.environment).filter((c) => c !== "USD");
  if (!targets.includes(currency)) throw new AppError("unsupported_currency", `Swaps go from USD to ${targets.join(", ")}.`, { param: "currency", details: { currencies: targets } });
  const n = /^\s*\d+(\.\d+)?\s*$/.test(query.amountUsd) ? Number(query.amountUsd) : NaN;
  const amountUsd = parseAmount(n, "USD", "amountUsd");
  const rate = await rateFor(auth.environment, currency);
  if (!rate) throw new AppError("fx_unavailable", `No current FX rate for ${currency}.`, { param: "currency", details: { currency } });
  const feeUsd = percentOf(amountUsd, SWAP_FEE_BP);
  const amountLocal = usdToLocal(amountUsd - feeUsd, rate, currency);
  if (amountLocal <= 0n) throw new AppError("amount_invalid", "The amount is too small to swap.", { param: "amountUsd" });
  const q = await db().payoutSwap.create({
    data: { id: newId("swapQuote"), ...merchantScope(auth), fromCurrency: "USD", toCurrency: currency, amountUsd, feeUsd, amountLocal, rate, expiresAt: new Date(Date.now() + QUOTE_TTL_MS) },
  });
  return { ...present(q), expiresAt: q.expiresAt.toISOString() };
}

export async function executeSwap(auth: MerchantContext, input: { quoteId: string }) {
  const { id: merchantId } = auth.merchant;
  const refuse = (reason: string, message: string) => new AppError("invalid_request", message, { param: "quoteId", details: { reason, quoteId: input.quoteId } });
  return db().$transaction(async (tx) => {
    const r = await transitionIn(tx, {
      name: "executeSwap",
      // The quote row is locked first (then the ledger): a quote executes at most once.
      load: async () => {
        const q = await lockRow(tx, "payout_swaps", input.quoteId, () => tx.payoutSwap.findUnique({ where: { id: input.quoteId } }));
        return q && q.merchantId === merchantId && q.environment === auth.environment ? q : null;
      },
      missing: () => refuse("quote_not_found", `No swap quote ${input.quoteId}; get one with GET /me/payout/swap.`),
      ledger: (q) => ({ merchantId: q.merchantId, environment: q.environment, shopId: null }),
      status: (q) => (q.executedAt ? "executed" : "quoted"),
      from: ["quoted"],
      refuse: (q) => refuse("quote_already_executed", `Quote ${q.id} was already executed at ${q.executedAt!.toISOString()}.`),
      apply: async (_, q) => {
        if (q.expiresAt.getTime() <= Date.now()) throw refuse("quote_expired", `Quote ${q.id} expired at ${q.expiresAt.toISOString()}; get a new one.`);
        const usd = (await payoutBalances(tx, merchantId, auth.environment)).get("USD")!;
        if (usd.available < q.amountUsd) {
          const available = usd.available > 0n ? usd.available : 0n;
          throw new AppError("balance_insufficient", `The USD payout balance (${toMajor(available, "USD")}) cannot cover ${toMajor(q.amountUsd, "USD")} USD; fund it with POST /me/payout/transfer.`, {
            details: { availableUsd: toMajor(available, "USD"), shortfallUsd: toMajor(q.amountUsd - available, "USD") },
          });
        }
        const executed = await tx.payoutSwap.update({ where: { id: q.id }, data: { executedAt: new Date() } });
        await bindIdempotency(tx, { resource: "payout_swap", id: q.id });
        return { result: executed, postings: [payoutSwap(q)] };
      },
    });
    const executed = r.result!;
    // Read in the same transaction: the balances right after this swap.
    return { swap: { ...present(executed), executedAt: executed.executedAt!.toISOString() }, balances: presentBalances(await payoutBalances(tx, merchantId, auth.environment)) };
  });
}
