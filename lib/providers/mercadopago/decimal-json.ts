// Mercado Pago's amounts are JSON decimal numbers (`"transaction_amount": 125.5`): written here
// from integer minor units and read back into them as exact decimal text, never through a
// JavaScript float (a float of 0.1 + 0.2 is not 0.3; a float of a large COP amount loses cents).
import { decimalToMinor, toDecimalString } from "@/lib/money/amount";

const MARK = "\u0000mp-decimal:";
/** The money keys of MP's bodies read as text: payments' transaction_amount, refunds' amount, items' unit_price. */
const AMOUNT_KEYS = ["transaction_amount", "transaction_amount_refunded", "amount", "unit_price", "total_paid_amount"];

/** A placeholder JSON.stringify writes as a string; `stringifyWithDecimals` turns it into a bare number. */
export const decimal = (minor: bigint, currency: string): string => `${MARK}${toDecimalString(minor, currency)}`;

/** A whole number written as a bare JSON number (MP's COP, lib/providers/mercadopago/transformers.ts mpAmount). */
export const wholeNumber = (n: bigint): string => `${MARK}${n}`;

/** JSON text where each `decimal(...)` value is the bare decimal number it stands for. */
export function stringifyWithDecimals(body: unknown): string {
  return JSON.stringify(body).replace(/"\\u0000mp-decimal:(-?\d+(?:\.\d+)?)"/g, "$1");
}

/**
 * Parses an answer with its money keys kept as their exact text ("125.5"): the number token is
 * quoted before JSON.parse sees it. A key inside a string value is escaped (`\"amount\"`) and
 * never matched. Undefined when the text is not JSON.
 */
export function parseWithDecimals(text: string): any {
  const keys = AMOUNT_KEYS.join("|");
  const quoted = text.replace(new RegExp(`("(?:${keys})"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, "g"), '$1"$2"');
  try {
    return JSON.parse(quoted);
  } catch {
    return undefined;
  }
}

/** An amount MP answered (text from parseWithDecimals, or a plain number from a test) -> minor units; null when unreadable. */
export function minorOf(value: unknown, currency: string | null | undefined): bigint | null {
  if (!currency) return null;
  const text = typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : null;
  if (text === null || !/^\d+(\.\d+)?$/.test(text)) return null;
  try {
    return decimalToMinor(text, currency);
  } catch {
    return null;
  }
}
