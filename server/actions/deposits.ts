"use server";
// Deposit accounts (CLABEs): a sandbox deposit from a payer.
import { dashboardAction } from "@/server/dashboard-action";
import { simulateDepositBody } from "@/lib/deposits/schema";
import { simulateDeposit } from "@/lib/deposits/simulate-deposit";
import { replayDeposit } from "@/lib/deposits/replays";
import { amountField, optionalText } from "@/server/actions/form-fields";

type DepositForm = { amount?: string; payerName?: string; payerBank?: string; payerDocument?: string; trackingKey?: string; reference?: string };

export const simulateDepositAction = dashboardAction(
  "simulateDeposit",
  {
    args: (accountId: string, form: DepositForm, formKey?: string) => ({
      accountId,
      formKey,
      input: {
        amount: amountField(form.amount),
        payerName: form.payerName ?? "",
        payerBank: form.payerBank ?? "",
        payerDocument: optionalText(form.payerDocument),
        trackingKey: optionalText(form.trackingKey),
        reference: optionalText(form.reference),
      },
    }),
    input: simulateDepositBody,
    shop: true,
    once: "simulate-deposit",
    replay: ({ ctx, accountId }, ref) => replayDeposit(ctx, accountId, ref),
  },
  ({ ctx, accountId, input }) => simulateDeposit(ctx, accountId, input),
);
