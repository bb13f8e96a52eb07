// FX conversion with rates as exact decimals. A rate is "units of quote currency per 1 USD",
// stored as a decimal string and used as a scaled integer: no float ever touches money.
import { exponent } from "@/lib/money/currency";
import { mulDivHalfUp } from "@/lib/money/amount";

export const RATE_SCALE_DIGITS = 10;
const RATE_SCALE = 10n ** BigInt(RATE_SCALE_DIGITS);

/** "5.4321" -> 54321000000n (rate × 10^10). */
export function parseRate(rate: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,10}))?$/.exec(rate.trim());
  if (!m) throw new Error(`invalid rate ${rate}`);
  const scaled = BigInt(m[1]! + (m[2] ?? "").padEnd(RATE_SCALE_DIGITS, "0"));
  if (scaled === 0n) throw new Error("a rate cannot be zero");
  return scaled;
}

export function formatRate(scaled: bigint): string {
  const int = scaled / RATE_SCALE;
  const frac = (scaled % RATE_SCALE).toString().padStart(RATE_SCALE_DIGITS, "0").replace(/0+$/, "");
  return frac ? `${int}.${frac}` : `${int}`;
}

/** USD minor -> local minor at `rate` (local per USD), half-up. */
export function usdToLocal(usdMinor: bigint, rate: string, localCurrency: string): bigint {
  const shift = exponent(localCurrency) - exponent("USD");
  const num = parseRate(rate) * 10n ** BigInt(Math.max(0, shift));
  const den = RATE_SCALE * 10n ** BigInt(Math.max(0, -shift));
  return mulDivHalfUp(usdMinor, num, den);
}

/** Local minor -> USD minor at `rate` (local per USD), half-up. */
export function localToUsd(localMinor: bigint, rate: string, localCurrency: string): bigint {
  const shift = exponent("USD") - exponent(localCurrency);
  const num = RATE_SCALE * 10n ** BigInt(Math.max(0, shift));
  const den = parseRate(rate) * 10n ** BigInt(Math.max(0, -shift));
  return mulDivHalfUp(localMinor, num, den);
}

/**
 * Presentment conversion (decisions.md): USD headline = input ÷ rate × (1 − markup). The markup
 * is in basis points (200 = 2%).
 */
export function presentmentToUsd(inputMinor: bigint, rate: string, inputCurrency: string, markupBp: bigint): bigint {
  const shift = exponent("USD") - exponent(inputCurrency);
  const num = RATE_SCALE * (10_000n - markupBp) * 10n ** BigInt(Math.max(0, shift));
  const den = parseRate(rate) * 10_000n * 10n ** BigInt(Math.max(0, -shift));
  return mulDivHalfUp(inputMinor, num, den);
}
