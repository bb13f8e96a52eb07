"use server";
// Withdrawals of available pay-in USD to a crypto destination, and (sandbox) their outcome.
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { createWithdrawalBody } from "@/lib/withdrawals/schema";
import { replayWithdrawal, requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { simulateWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import { amountField } from "@/server/actions/form-fields";

type WithdrawForm = { amountUsd?: string; asset?: string; network?: string; address?: string };

/** Withdraw available pay-in USD to the settlement destination (or another address). */
export const withdrawAction = dashboardAction(
  "moveMoney",
  {
    args: (form: WithdrawForm, formKey?: string) => ({
      formKey,
      input: { amountUsd: amountField(form.amountUsd), ...(form.address?.trim() ? { destination: { asset: form.asset, network: form.network, address: form.address.trim() } } : {}) },
    }),
    input: createWithdrawalBody,
    once: "withdraw",
    replay: ({ ctx }, ref) => replayWithdrawal(ctx, ref.id),
  },
  ({ ctx, input }) => requestWithdrawal(ctx, input),
);

export const simulateWithdrawalAction = dashboardAction(
  "simulateCrypto",
  { args: (withdrawalId: string, action: "completed" | "failed", formKey?: string) => ({ withdrawalId, formKey, input: action }), input: oneOf("action", ["completed", "failed"], "Unknown simulate action."), once: "withdrawal-simulate" },
  ({ ctx, withdrawalId, input }) => simulateWithdrawal(ctx, withdrawalId, input),
);
