// What the sandbox provider shows a buyer per rail: deterministic, realistic-looking test data
// derived from the transaction id (a valid CLABE, a PIX copy-and-paste code, an OXXO reference).
import { createHash } from "node:crypto";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import type { Transaction } from "@/lib/generated/prisma/client";
import { brCode } from "@/lib/payments/br-code";

function digits(seed: string, n: number): string {
  const h = createHash("sha256").update(seed).digest();
  let out = "";
  for (let i = 0; out.length < n; i++) out += (h[i % h.length]! % 10).toString();
  return out;
}

export function sandboxClabe(seed: string): string {
  const first17 = `646180${digits(seed, 11)}`; // 646 = STP, plaza 180
  return first17 + clabeCheckDigit(first17);
}

export type SandboxInstructions =
  | { kind: "pix"; code: string }
  | { kind: "spei"; clabe: string; bank: string; reference: string }
  | { kind: "oxxo"; reference: string }
  | { kind: "boleto"; line: string }
  | { kind: "card" }
  | { kind: "transfer"; bank: string; reference: string };

export function sandboxInstructions(tx: Pick<Transaction, "id" | "method" | "amountLocal" | "currencyLocal">): SandboxInstructions {
  switch (tx.method) {
    case "pix":
      // A well-formed dynamic BR Code (valid CRC, the amount in field 54) a banking app would read;
      // the sandbox location URL serves nothing, so no real PIX can be paid with it.
      return {
        kind: "pix",
        code: brCode({
          url: `pix.sandbox.latampayments.example/qr/v2/${tx.id}`,
          amountMinor: tx.currencyLocal === "BRL" ? tx.amountLocal : undefined,
          merchantName: "SANDBOX STORE",
          merchantCity: "SAO PAULO",
          txid: tx.id.replace(/^tx_/, ""),
        }),
      };
    case "spei":
      return { kind: "spei", clabe: sandboxClabe(tx.id), bank: "STP", reference: digits(tx.id + "ref", 7) };
    case "oxxo":
      return { kind: "oxxo", reference: digits(tx.id + "oxxo", 14) };
    case "boleto":
      return { kind: "boleto", line: digits(tx.id + "boleto", 47).replace(/^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/, "$1.$2 $3.$4 $5.$6 $7 $8") };
    case "card":
      return { kind: "card" };
    default:
      return { kind: "transfer", bank: "Sandbox Bank", reference: digits(tx.id + "ref", 10) };
  }
}
