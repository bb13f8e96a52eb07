// GET /me/payout/methods and GET /me/payout/currencies: the catalog with what the merchant
// holds in each currency.
import { db } from "@/lib/platform/db";
import { decimalToMinor, toMajor } from "@/lib/money/amount";
import { payoutBalances, type MerchantContext } from "@/lib/payouts/balances";
import { payoutIconUrl, payoutMethods } from "@/lib/payouts/methods";

export async function listPayoutMethods(auth: MerchantContext) {
  const balances = await payoutBalances(db(), auth.merchant.id, auth.environment);
  return {
    items: payoutMethods(auth.environment).map((m) => {
      const b = balances.get(m.currency);
      const icon = payoutIconUrl(m);
      return {
        id: m.id,
        name: m.name,
        currency: m.currency,
        country: m.country,
        rail: m.rail,
        minUsd: toMajor(decimalToMinor(m.minUsd, "USD"), "USD"),
        maxUsd: toMajor(decimalToMinor(m.maxUsd, "USD"), "USD"),
        logoUrl: icon,
        iconUrl: icon,
        funded: b !== undefined,
        currencyAvailable: toMajor(b?.available ?? 0n, m.currency),
      };
    }),
  };
}

export async function listPayoutCurrencies(auth: MerchantContext) {
  const balances = await payoutBalances(db(), auth.merchant.id, auth.environment);
  const byCurrency = new Map<string, { country: string | null; rails: Array<{ id: string; rail: string; country: string }> }>([["USD", { country: null, rails: [] }]]);
  for (const m of payoutMethods(auth.environment)) {
    const entry = byCurrency.get(m.currency) ?? { country: m.country, rails: [] };
    entry.rails.push({ id: m.id, rail: m.rail, country: m.country });
    byCurrency.set(m.currency, entry);
  }
  const currencies = [...byCurrency.entries()]
    .sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)))
    .map(([currency, e]) => {
      const b = balances.get(currency);
      return { currency, country: e.country, funded: b !== undefined, available: toMajor(b?.available ?? 0n, currency), rails: e.rails };
    });
  return { currencies };
}
