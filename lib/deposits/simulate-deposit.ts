// POST /me/deposit-accounts/{id}/simulate-deposit (sandbox): a SPEI transfer to the account's
// CLABE, credited exactly as a provider's notice of a real one (receive-deposit.ts).
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { toMinor } from "@/lib/money/amount";
import { presentDeposit } from "@/lib/deposits/present";
import { receiveDeposit } from "@/lib/deposits/receive-deposit";
import { findOwnedAccount, type ShopContext } from "@/lib/deposits/scope";

export type SimulateDepositInput = { amount: unknown; payerName: string; payerBank: string; payerDocument?: string; trackingKey?: string; reference?: string };

export async function simulateDeposit(auth: ShopContext, id: string, input: SimulateDepositInput) {
  const account = await findOwnedAccount(auth, id);
  const amount = typeof input.amount === "number" && input.amount > 0 ? toMinor(input.amount, account.currency) : null;
  if (amount === null || amount <= 0n) throw new AppError("amount_invalid", `\`amount\` must be a positive number of ${account.currency} with at most its decimals.`, { param: "amount" });
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
