// The price rule (decisions.md, Money), the one place a pay-in's amounts are derived from what
// the merchant asked:
// - the merchant's USD credit: a USD amount as is; a presentment currency at the mid rate less
//   the FX markup (input ÷ rate × (1 − markup));
// - what the buyer pays in the rail's currency: exactly the asked amount when that is the rail's
//   own currency; otherwise the asked amount converted at the mid rate, with no markup. The USD
//   credit is never the base of the buyer's price, so the markup only ever lowers the credit.
import { presentmentToUsd, usdToLocal } from "@/lib/money/fx";
import { PRESENTMENT_MARKUP_BP } from "@/lib/money/rates";

/** What the merchant asked: minor units of `currency` (USD or a presentment currency). */
export type Asked = { currency: string; inputMinor: bigint };

/** The merchant's USD credit for `asked`; `inputRate` is the asked currency's rate (local per USD), ignored for USD. */
export function creditUsd(asked: Asked, inputRate: string | null): bigint {
  if (asked.currency === "USD") return asked.inputMinor;
  if (!inputRate) throw new Error(`no rate for ${asked.currency}`);
  return presentmentToUsd(asked.inputMinor, inputRate, asked.currency, PRESENTMENT_MARKUP_BP);
}

/**
 * The buyer's price in `railCurrency`. `rates.input` is the asked currency's rate (needed only
 * when it is neither USD nor the rail's currency), `rates.rail` the rail currency's.
 */
export function buyerPrice(asked: Asked, railCurrency: string, rates: { input: string | null; rail: string }): bigint {
  if (asked.currency === railCurrency) return asked.inputMinor;
  const usdAtMid = asked.currency === "USD" ? asked.inputMinor : rates.input ? presentmentToUsd(asked.inputMinor, rates.input, asked.currency, 0n) : null;
  if (usdAtMid === null) throw new Error(`no rate for ${asked.currency}`);
  return usdToLocal(usdAtMid, rates.rail, railCurrency);
}

