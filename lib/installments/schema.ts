// The API shape of an installment choice (a payment's `installments`, the catalog's options).
import { z } from "zod";

const money = z.number();

export const installmentsShown = z
  .object({
    count: z.number().int(),
    amount: money.describe("Each installment but the last"),
    lastAmount: money.describe("The last installment (it absorbs the rounding)"),
    total: money.describe("What the buyer pays in all"),
    financingFee: money.describe("merchant: the shop's fee, booked on its own ledger leg; buyer: the interest the buyer pays"),
    paidBy: z.enum(["merchant", "buyer"]),
    monthlyRate: z.number().optional().describe("Buyer-paid: the monthly interest rate, percent"),
    cet: z.number().optional().describe("Buyer-paid: the annual effective cost (Brazil's CET), percent"),
  })
  .meta({ id: "Installments" });
