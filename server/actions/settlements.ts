"use server";
// Settlements: where they go, (sandbox) closing a batch now and deciding its transfer.
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { runSettlement } from "@/lib/settlements/run-settlement";
import { setDestinationBody } from "@/lib/crypto-assets/schema";
import { setSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { simulateSettlement } from "@/lib/settlements/settle-batch";

/** Where settlements and withdrawals go (PUT /me/settlement-destination's use case and checks). */
export const setSettlementDestinationAction = dashboardAction(
  "manageSettlements",
  { args: (form: { asset?: string; network?: string; address?: string }, formKey?: string) => ({ formKey, input: { ...form, address: form.address?.trim() } }), input: setDestinationBody, once: "settlement-destination" },
  ({ ctx, input }) => setSettlementDestination(ctx, input),
);

/** Sandbox: close a settlement batch now (the daily job's work, for this merchant). */
export const runSettlementAction = dashboardAction("runSettlement", { args: (formKey?: string) => ({ formKey }), once: "settlement-run" }, ({ ctx }) => runSettlement(ctx));

/** Sandbox: the same batch with the 50 USD minimum waived (POST /settlements/run {waiveMinimum: true}). */
export const runSmallSettlementAction = dashboardAction("runSettlement", { args: (formKey?: string) => ({ formKey }), once: "settlement-run-small" }, ({ ctx }) => runSettlement(ctx, { waiveMinimum: true }));

export const simulateSettlementAction = dashboardAction(
  "simulateCrypto",
  { args: (settlementId: string, action: "paid" | "failed", formKey?: string) => ({ settlementId, formKey, input: action }), input: oneOf("action", ["paid", "failed"], "Unknown simulate action."), once: "settlement-simulate" },
  ({ ctx, settlementId, input }) => simulateSettlement(ctx, settlementId, input),
);
