// POST /me/deposit-accounts/{id}/simulate-deposit (sandbox): a SPEI transfer to the account's
// CLABE, credited exactly as a provider's notice of a real one (receive-deposit.ts).
import { randomBase62 } from "@/lib/platform/ids";
import { parseAmount } from "@/lib/money/parse-amount";
import { presentDeposit } from "@/lib/deposits/present";
import { receiveDeposit } from "@/lib/deposits/receive-deposit";
import { findOwnedAccount, type ShopContext } from "@/lib/deposits/scope";

export type SimulateDepositInput = { amount: unknown; payerName: string; payerBank: string; payerDocument?: string; trackingKey?: string; reference?: string };

export async function simulateDeposit(auth: ShopContext, id: string, input: SimulateDepositInput) {
  const account = await findOwnedAccount(auth, id);
  const amount = parseAmount(input.amount, account.currency);
  const r = await receiveDeposit(account.id, {
    amount,
    currency: account.currency,
    // SPEI tracking keys: up to 30 letters and digits.
    trackingKey: input.trackingKey ?? `SBX${randomBase62(24)}`,
    payerName: input.payerName,
    payerBank: input.payerBank,
    payerDocument: input.payerDocument ?? null,
    reference: input.reference ?? null,
    receivedAt: new Date(),
    status: "credited",
  });
  return { created: r.created, deposit: presentDeposit(r.deposit) };
}
