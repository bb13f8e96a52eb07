"use server";
// A payment's actions: refund, sandbox outcomes, and the developers page's test payment through
// scripted providers. Each names the permission the matching API endpoint names
// (lib/platform/auth/policy.ts) and calls the same lib/ use case as the API.
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { refundBody } from "@/lib/claims/schema";
import { refundPayment } from "@/lib/claims/refund-payment";
import { simulatePayment, type SimulateAction } from "@/lib/outcomes/simulate-payment";
import { createPaymentBody, SIMULATE_ACTIONS, type CreatePaymentInput } from "@/lib/payments/schema";
import { createPayment, type CreatePaymentOptions } from "@/lib/payments/create-payment";
import { parseSandboxBehaviourHeader } from "@/lib/payments/sandbox-behaviour";
import { parseSandboxSimulateHeader } from "@/lib/payments/sandbox-schedule";
import { replayRefund } from "@/lib/claims/replays";
import { amountField } from "@/server/actions/form-fields";

export const refundAction = dashboardAction(
  "moveMoney",
  {
    args: (paymentId: string, form: { amount?: string; reason?: string }, formKey?: string) => ({ paymentId, formKey, input: { amount: amountField(form.amount), ...(form.reason?.trim() ? { reason: form.reason.trim() } : {}) } }),
    input: refundBody,
    once: "refund",
    replay: ({ ctx }, ref) => replayRefund(ctx, ref),
  },
  ({ ctx, paymentId, input }) => refundPayment(ctx, paymentId, input),
);

export const simulateAction = dashboardAction(
  "simulatePayment",
  { args: (paymentId: string, action: SimulateAction, formKey?: string) => ({ paymentId, formKey, input: action }), input: oneOf("action", SIMULATE_ACTIONS, "Unknown simulate action."), once: "simulate-payment" },
  ({ ctx, paymentId, input }) => simulatePayment(ctx, paymentId, input),
);

/**
 * The developers page's "test the cascade" card (sandbox): a payment through scripted simulated
 * providers (Sandbox-Provider-Behaviour), answered with the payment or the cascade's refusal and
 * its attempts, so a tester sees what an integration would get.
 */
export const testCascadeAction = dashboardAction(
  "simulatePayment",
  {
    args: (form: { paymentMethodId?: string; amount?: string; steps: string[]; notices: string[]; outcome?: string }, formKey?: string) => ({
      behaviour: parseSandboxBehaviourHeader(new Headers({ "sandbox-provider-behaviour": [...form.steps.filter(Boolean), ...form.notices].join(",") })),
      simulate: parseSandboxSimulateHeader(form.outcome?.trim() ? form.outcome : null),
      formKey,
      input: { paymentMethodId: form.paymentMethodId ?? "sbx_card", amount: amountField(form.amount), ...testBuyer(form.paymentMethodId ?? "sbx_card") },
    }),
    input: createPaymentBody,
    shop: true,
    once: "test-cascade",
  },
  ({ ctx, input, behaviour, simulate }) => cascadeOutcome(ctx, input, { behaviour, simulate }),
);

/** The payment, or the cascade's refusal with its attempts (any other error is the action's). */
async function cascadeOutcome(ctx: AuthContext, body: CreatePaymentInput, sandbox: CreatePaymentOptions) {
  try {
    const p = await createPayment(ctx, body, sandbox);
    return { kind: "created" as const, transactionId: p.transactionId, status: p.status };
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "cascade_exhausted") throw err;
    const details = err.details as { reason?: string; attempts?: unknown[]; transactionId?: string };
    return { kind: "refused" as const, code: err.code, reason: details.reason ?? null, transactionId: details.transactionId ?? null, attempts: details.attempts ?? [] };
  }
}

/** A buyer each sandbox rail accepts (its document rule), for test payments made from the dashboard. */
const TEST_DOCUMENTS: Record<string, string> = { sbx_pix: "52998224725", sbx_boleto: "52998224725", sbx_br_card: "52998224725", sbx_mx_card: "GODE561231GR8", sbx_pse: "1020304050", sbx_cash: "PEGL800101" };
const testBuyer = (rail: string) => ({ userName: "Ana Souza", userEmail: "ana@example.com", userPhone: "+525512345678", documentId: TEST_DOCUMENTS[rail] ?? "GODE561231GR8" });
