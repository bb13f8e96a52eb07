// EBANX writes amounts as JSON numbers in some answers (`"amount_br": 103.50`) and as strings in
// others (`"amount_br": "48.81"`): both appear in EBANX's published examples (github.com/ebanx/benjamin
// tests/Unit/Services/Gateways/PixTest.php and BoletoTest.php). JSON.parse would turn the numbers into
// floats, so answers are parsed with every number kept as its exact source text, and amounts are
// built and read as decimal strings (lib/money/amount.ts), never through a float.
import { decimalToMinor, toDecimalString } from "@/lib/money/amount";

/** JSON.parse, except that every number comes back as a string of its exact digits. */
export function parseExactJson(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // Copy a string literal as is, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) throw new SyntaxError(`bad number at ${i}`);
      out += `"${m[0]}"`;
      i += m[0].length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

/** Minor units -> EBANX's decimal amount ("100.50"), exact. */
export const ebanxAmount = (minor: bigint, currency: string): string => toDecimalString(minor, currency);

/** An EBANX amount as it arrived ("48.81", "100", "103.50") -> minor units; null when it is not a plain decimal of that currency. */
export function minorOf(value: unknown, currency: string | null): bigint | null {
  if (typeof value !== "string" || !currency || !/^\d+(\.\d+)?$/.test(value)) return null;
  try {
    return decimalToMinor(value, currency.toUpperCase());
  } catch {
    return null;
  }
}
