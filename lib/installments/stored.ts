// The plan a payment was made on, as the row keeps it (transactions.installments, jsonb: amounts
// as strings of local minor units) and as the API shows it.
import type { Prisma } from "@/lib/generated/prisma/client";
import { presentQuote } from "@/lib/installments/offer";
import type { InstallmentQuote } from "@/lib/installments/price";

type Stored = { count: number; amount: string; lastAmount: string; total: string; financingFee: string; paidBy: InstallmentQuote["paidBy"]; rateBp: number; cet: string };

export function storedQuote(q: InstallmentQuote): Prisma.JsonObject {
  return { count: q.count, amount: String(q.amount), lastAmount: String(q.lastAmount), total: String(q.total), financingFee: String(q.financingFee), paidBy: q.paidBy, rateBp: q.rateBp, cet: q.cet } satisfies Stored;
}

export function quoteOf(value: Prisma.JsonValue | null | undefined): InstallmentQuote | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const s = value as unknown as Stored;
  return { count: s.count, amount: BigInt(s.amount), lastAmount: BigInt(s.lastAmount), total: BigInt(s.total), financingFee: BigInt(s.financingFee), paidBy: s.paidBy, rateBp: s.rateBp, cet: s.cet };
}

/** `{ installments }` for a payment made on a plan; nothing for one paid at once. */
export function presentInstallments(value: Prisma.JsonValue | null | undefined, currency: string) {
  const q = quoteOf(value);
  return q ? { installments: presentQuote(q, currency) } : {};
}
