"use server";
// Top-ups: a deposit address for stablecoins to the payout USD balance, and (sandbox) a deposit to it.
import { dashboardAction } from "@/server/dashboard-action";
import { createTopupEndpoint } from "@/lib/topups/schema";
import { createTopup, getTopup, simulateTopup } from "@/lib/topups/topups";
import { amountField } from "@/server/actions/form-fields";

/** A deposit address to top up the payout USD balance with stablecoins. */
export const createTopupAction = dashboardAction(
  "collect",
  { args: (form: { asset?: string; network?: string }, formKey?: string) => ({ formKey, input: form }), input: createTopupEndpoint.body, once: "topup", replay: ({ ctx }, ref) => getTopup(ctx, ref.id) },
  ({ ctx, input }) => createTopup(ctx, input),
);

export const simulateTopupAction = dashboardAction(
  "simulateCrypto",
  { args: (topupId: string, amount: string, formKey?: string) => ({ topupId, amount, formKey }), once: "topup-simulate" },
  ({ ctx, topupId, amount }) => simulateTopup(ctx, topupId, amountField(amount)),
);
