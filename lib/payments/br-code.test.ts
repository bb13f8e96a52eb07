// The BR Code against the Banco Central's published example and an independent, bitwise
// CRC16-CCITT written here (not the function under test), with the amount in field 54.
import { test } from "node:test";
import assert from "node:assert/strict";
import { brCode, crc16 } from "@/lib/payments/br-code";
import { sandboxInstructions } from "@/lib/payments/sandbox-instructions";

/** CRC-16/CCITT-FALSE, bit by bit over the UTF-8 bytes, as the EMV spec describes it. */
function referenceCrc(s: string): string {
  let crc = 0xffff;
  for (const b of new TextEncoder().encode(s)) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = ((crc >> 15) & 1) ^ ((b >> bit) & 1);
      crc = (crc << 1) & 0xffff;
      if (top) crc ^= 0x1021;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** Reads EMV fields (id, length, value) into a map; nested ones on demand. */
function fields(s: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < s.length; ) {
    const id = s.slice(i, i + 2);
    const len = Number(s.slice(i + 2, i + 4));
    out.set(id, s.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

test("the CRC matches the published example and the standard check value", () => {
  assert.equal(crc16("123456789"), "29B1");
  const example = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
  assert.equal(crc16(example), "1D3D");
  assert.equal(referenceCrc(example), "1D3D");
});

test("a dynamic code: fields in order, the amount in 54, a CRC an independent implementation agrees with", () => {
  const code = brCode({ url: "pix.example.com/qr/v2/abc", amountMinor: 15_000n, merchantName: "Café São João Ltda", merchantCity: "São Paulo", txid: "tx_ABC123" });
  const f = fields(code);
  assert.equal(f.get("00"), "01");
  assert.equal(f.get("01"), "12");
  assert.equal(fields(f.get("26")!).get("00"), "br.gov.bcb.pix");
  assert.equal(fields(f.get("26")!).get("25"), "pix.example.com/qr/v2/abc");
  assert.equal(f.get("53"), "986");
  assert.equal(f.get("54"), "150.00");
  assert.equal(f.get("59"), "CAFE SAO JOAO LTDA");
  assert.equal(f.get("60"), "SAO PAULO");
  assert.equal(fields(f.get("62")!).get("05"), "txABC123");
  assert.equal(code.slice(-8, -4), "6304");
  assert.equal(code.slice(-4), referenceCrc(code.slice(0, -4)));
});

test("the sandbox PIX page's copy-and-paste code is a valid BR Code with the payment's amount", () => {
  const info = sandboxInstructions({ id: "tx_Sandbox123", method: "pix", amountLocal: 81_000n, currencyLocal: "BRL" });
  assert.equal(info.kind, "pix");
  const code = (info as { code: string }).code;
  assert.equal(fields(code).get("54"), "810.00");
  assert.equal(code.slice(-4), referenceCrc(code.slice(0, -4)));
});
