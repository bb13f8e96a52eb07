// The payment id of a charge's nth send, derived from mandate, due date and attempt: the claim, a
// run after a crash between claim and send, and any other instance all name the same payment, and
// the payment's primary key (and the provider's reference, which is our id) lets it exist once.
// The mandate id is random and secret-free, so the derived id is as unguessable as newId's.
import { createHash } from "node:crypto";
import { ID_PREFIXES } from "@/lib/platform/ids";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function derived(seed: string, length: number): string {
  let n = BigInt(`0x${createHash("sha256").update(seed).digest("hex")}`);
  let out = "";
  for (let i = 0; i < length; i++) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

export function chargePaymentId(mandateId: string, dueDate: string, attempt: number): string {
  return `${ID_PREFIXES.transaction}_${derived(`mandate-charge:${mandateId}:${dueDate}:${attempt}`, 24)}`;
}

/**
 * The txid of a due date's CobR at the mandate's PSP (API Pix TxId, [a-zA-Z0-9]{26,35}): one per
 * mandate and due date, whichever send or instance asks, so a repeated PUT /cobr/{txid} is the
 * same charge at the PSP too.
 */
export function cobrTxid(mandateId: string, dueDate: string): string {
  return derived(`mandate-cobr:${mandateId}:${dueDate}`, 32);
}
