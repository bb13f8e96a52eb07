// The payment id of a charge's nth send, derived from mandate, due date and attempt: the claim, a
// run after a crash between claim and send, and any other instance all name the same payment, and
// the payment's primary key (and the provider's reference, which is our id) lets it exist once.
// The mandate id is random and secret-free, so the derived id is as unguessable as newId's.
import { createHash } from "node:crypto";
import { ID_PREFIXES } from "@/lib/platform/ids";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function chargePaymentId(mandateId: string, dueDate: string, attempt: number): string {
  const digest = createHash("sha256").update(`mandate-charge:${mandateId}:${dueDate}:${attempt}`).digest();
  let n = BigInt(`0x${digest.toString("hex")}`);
  let out = "";
  for (let i = 0; i < 24; i++) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return `${ID_PREFIXES.transaction}_${out}`;
}
