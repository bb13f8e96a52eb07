"use server";
// Deposit accounts (CLABEs): a test account made from the dashboard, a sandbox deposit from a payer.
import { dashboardAction } from "@/server/dashboard-action";
import { getOrCreateBody, simulateDepositBody } from "@/lib/deposits/schema";
import { simulateDeposit } from "@/lib/deposits/simulate-deposit";
import { getOrCreateDepositAccount } from "@/lib/deposits/get-or-create-account";
import { replayDeposit, replayDepositAccount } from "@/lib/deposits/replays";
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

type TestAccountForm = { endUserRef?: string; name?: string; email?: string };

/**
 * Sandbox: a deposit account made from the dashboard (the use case of POST /me/deposit-accounts,
 * its checks and answer), so the simulate-transfer form of its page is reachable before any
 * integration exists. The permission is sandbox-only: production's accounts come from the API.
 */
export const createTestDepositAccountAction = dashboardAction(
  "createTestDepositAccount",
  {
    args: (form: TestAccountForm, formKey?: string) => ({
      formKey,
      input: { endUserRef: optionalText(form.endUserRef), name: optionalText(form.name), email: optionalText(form.email) },
    }),
    input: getOrCreateBody,
    shop: true,
    once: "create-test-deposit-account",
    replay: ({ ctx }, ref) => replayDepositAccount(ctx, ref),
  },
  ({ ctx, input }) => getOrCreateDepositAccount(ctx, input),
);
