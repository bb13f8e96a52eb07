// The one conversion point between API numbers (major units) and stored integers (minor units,
// BigInt). Nothing else in the code base turns money into or out of a JS number.
import { exponent } from "@/lib/money/currency";

/** Decimal digits of a finite JS number, without exponent notation (1e-7 -> "0.0000001"). */
function plainDecimal(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  const [mant, expStr] = s.toLowerCase().split("e") as [string, string];
  const e = Number(expStr);
  const neg = mant.startsWith("-");
  const [int, frac = ""] = mant.replace("-", "").split(".") as [string, string?];
  const digits = int + frac;
  const point = int.length + e;
  const out = point <= 0 ? `0.${"0".repeat(-point)}${digits}` : point >= digits.length ? digits + "0".repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? "-" : "") + out;
}

/**
 * The largest amount, in minor units, the service takes anywhere: API amounts and the amounts of
 * provider notices. Far inside a BIGINT column's 64 bits (sums over many stay exact) and inside
 * 2^53, so an API number shows it exactly.
 */
export const MAX_MINOR = 10n ** 15n;

/**
 * Major-unit number -> minor units. Returns null when the number has more decimals than the
 * currency allows (callers turn that into amount_invalid), is not finite, or is too large.
 */
export function toMinor(amount: number, currency: string): bigint | null {
  if (!Number.isFinite(amount)) return null;
  const exp = exponent(currency);
  const s = plainDecimal(amount);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return null;
  const frac = (m[3] ?? "").replace(/0+$/, "");
  if (frac.length > exp) return null;
  const minor = BigInt(m[2]! + frac.padEnd(exp, "0"));
  if (minor > MAX_MINOR) return null;
  return m[1] ? -minor : minor;
}

/**
 * Major-unit number -> minor units, rounded up to the next minor unit when it has more decimals
 * than the currency (500.005 USD -> 50001). For thresholds only: "at least 500.005" is "at least
 * 500.01" and "below 1000.001" is "below 1000.01" in whole cents, so a rule saved before such
 * values were refused keeps its meaning. Null when not finite or negative.
 */
export function toMinorUp(amount: number, currency: string): bigint | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  const exp = exponent(currency);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(plainDecimal(amount));
  if (!m) return null;
  const frac = m[2] ?? "";
  const minor = BigInt(m[1]! + frac.slice(0, exp).padEnd(exp, "0"));
  return /[1-9]/.test(frac.slice(exp)) ? minor + 1n : minor;
}

/** An exact decimal string of the catalog ("500000.00") -> minor units, without a float. */
export function decimalToMinor(decimal: string, currency: string): bigint {
  const exp = exponent(currency);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  const frac = (m?.[2] ?? "").replace(/0+$/, "");
  if (!m || frac.length > exp) throw new Error(`${decimal} is not an amount of ${currency}`);
  return BigInt(m[1]! + frac.padEnd(exp, "0"));
}

/**
 * An exact decimal string with any number of decimals ("120.505", a stablecoin's units) -> minor
 * units of `currency`, rounded down: what arrived is never credited as more.
 */
export function decimalToMinorDown(decimal: string, currency: string): bigint {
  const exp = exponent(currency);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) throw new Error(`${decimal} is not a decimal amount`);
  return BigInt(m[1]! + (m[2] ?? "").slice(0, exp).padEnd(exp, "0"));
}

/** Minor units -> the exact decimal text in major units ("-12.30"; files such as CSV exports). */
export function toDecimalString(minor: bigint, currency: string): string {
  const exp = exponent(currency);
  const neg = minor < 0n;
  const abs = neg ? -minor : minor;
  const base = 10n ** BigInt(exp);
  const int = abs / base;
  const frac = (abs % base).toString().padStart(exp, "0");
  return `${neg ? "-" : ""}${int}${exp ? `.${frac}` : ""}`;
}

/** Minor units -> major-unit number for API answers (exact for any amount below 2^53 minor units). */
export function toMajor(minor: bigint, currency: string): number {
  return Number(toDecimalString(minor, currency));
}

/** a × num / den rounded half-up (away from zero on .5), all integers. */
export function mulDivHalfUp(a: bigint, num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new Error("denominator must be positive");
  const neg = a < 0n !== num < 0n;
  const p = (a < 0n ? -a : a) * (num < 0n ? -num : num);
  const q = (p * 2n + den) / (den * 2n);
  return neg ? -q : q;
}

/** Basis-point share of an amount (2.9% = 290 bp), half-up. */
export function percentOf(minor: bigint, basisPoints: bigint): bigint {
  return mulDivHalfUp(minor, basisPoints, 10_000n);
}
