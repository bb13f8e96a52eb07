"use server";
// Recurring PIX mandates (the Subscriptions page): the shop's cancel, and (sandbox) the payer's
// answers. The API's use cases, under the same permissions as POST /mandates/{id}/cancel and
// POST /mandates/{id}/simulate.
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { cancelMandate } from "@/lib/mandates/cancel-mandate";
import { simulateMandate } from "@/lib/mandates/simulate-mandate";
import { MANDATE_SIMULATE_ACTIONS } from "@/lib/mandates/schema";

/** The shop ends an active mandate: nothing more is charged under it. */
export const cancelMandateAction = dashboardAction(
  "collect",
  { args: (mandateId: string, formKey?: string) => ({ mandateId, formKey }), once: "cancel-mandate" },
  ({ ctx, mandateId }) => cancelMandate(ctx, mandateId),
);

export const simulateMandateAction = dashboardAction(
  "simulateMandate",
  {
    args: (mandateId: string, action: (typeof MANDATE_SIMULATE_ACTIONS)[number], formKey?: string) => ({ mandateId, formKey, input: action }),
    input: oneOf("action", MANDATE_SIMULATE_ACTIONS, "Unknown answer."),
    once: "simulate-mandate",
  },
  ({ ctx, mandateId, input }) => simulateMandate(ctx, mandateId, input),
);
