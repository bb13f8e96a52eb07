// What the sandbox provider shows a buyer per rail: deterministic, realistic-looking test data
// derived from the transaction id (a valid CLABE, a PIX copy-and-paste code, an OXXO reference).
import { createHash } from "node:crypto";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { toMajor } from "@/lib/money/amount";
import type { Transaction } from "@/lib/generated/prisma/client";

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

export function sandboxInstructions(tx: Pick<Transaction, "id" | "method" | "amountLocal" | "currencyLocal">): { title: string; fields: Array<{ label: string; value: string }> } {
  const amount = `${toMajor(tx.amountLocal, tx.currencyLocal)} ${tx.currencyLocal}`;
  switch (tx.method) {
    case "pix":
      return { title: "Pay with PIX", fields: [{ label: "PIX copy and paste code", value: `00020126580014br.gov.bcb.pix0136${digits(tx.id, 32)}5204000053039865802BR5913SANDBOX STORE6009SAO PAULO62070503***6304${digits(tx.id + "crc", 4)}` }, { label: "Amount", value: amount }] };
    case "spei":
      return { title: "Pay by SPEI bank transfer", fields: [{ label: "CLABE", value: sandboxClabe(tx.id) }, { label: "Reference", value: digits(tx.id + "ref", 7) }, { label: "Amount", value: amount }] };
    case "oxxo":
      return { title: "Pay in cash at OXXO", fields: [{ label: "OXXO reference", value: digits(tx.id + "oxxo", 14) }, { label: "Amount", value: amount }] };
    case "card":
      return { title: "Pay by card", fields: [{ label: "Test card", value: "4242 4242 4242 4242" }, { label: "Amount", value: amount }] };
    default:
      return { title: "Pay by bank transfer", fields: [{ label: "Bank", value: "Sandbox Bank" }, { label: "Reference", value: digits(tx.id + "ref", 10) }, { label: "Amount", value: amount }] };
  }
}
