// Amounts as providers write them in signed notices, bounded like every amount (MAX_MINOR). A
// notice is authentic once verified, not sensible: an amount no transfer has (beyond 64 bits, or
// just beyond what the API takes) must be refused as a bad notice (400 invalid_request, the same
// answer on every retry), never reach a BIGINT column and fail there as a 500 on every retry.
import { z } from "zod";
import { MAX_MINOR, decimalToMinorDown } from "@/lib/money/amount";

const DIGITS = /^\d+$/;

/** Whole minor units as a digit string ("364000"), at most MAX_MINOR. */
export const minorUnitsText = () =>
  z
    .string()
    .regex(DIGITS, "must be whole minor units (digits only)")
    // zod runs a refinement even after the regex failed: test the shape again, or BigInt throws (a 500).
    .refine((v) => !DIGITS.test(v) || BigInt(v) <= MAX_MINOR, `must be at most ${MAX_MINOR} minor units`);

/** Major units with up to `decimals` decimals ("120.50"), at most MAX_MINOR minor units of `currency` once rounded down. */
export const decimalUnitsText = (currency: string, decimals: number) => {
  const shape = new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`);
  return z
    .string()
    .regex(shape, `must be a decimal number with at most ${decimals} decimals`)
    .refine((v) => !shape.test(v) || decimalToMinorDown(v, currency) <= MAX_MINOR, `must be at most ${MAX_MINOR} minor units of ${currency}`);
};
