// Shared set-up of the QR collection API tests (qr-*.test.ts; not a test file itself): an
// independent CRC16-CCITT and the BR Code's EMV fields, an establishment registered as the operator
// CLI does, and the FX rate each file seeds in its before().
import assert from "node:assert/strict";
import { newMerchant } from "./helpers.ts";
import { registerEstablishment } from "@/lib/qr/establishments";
import { setRate } from "@/lib/money/rates";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

/** The production FX rate the BR Codes need (a table every test file seeds with the same values). */
export const seedRates = () => setRate("BRL", "5.40", "test");

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection), written apart from lib/payments/br-code.ts: bit by bit, MSB first. */
export function crcCcitt(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = ((crc >> 15) & 1) ^ ((byte >> bit) & 1);
      crc = (crc << 1) & 0xffff;
      if (top) crc ^= 0x1021;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
// The check itself is checked: the standard check value of CRC-16/CCITT-FALSE over "123456789".
assert.equal(crcCcitt("123456789"), "29B1");
/** The top-level EMV fields of a BR Code: id -> value. */
export function emvFields(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < code.length; ) {
    const id = code.slice(i, i + 2);
    const len = Number(code.slice(i + 2, i + 4));
    out.set(id, code.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

export async function establishment(opts: { tier?: "standard" | "premium" } = {}): Promise<CreatedMerchant> {
  const m = await newMerchant(opts);
  await registerEstablishment({ shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  return m;
}
