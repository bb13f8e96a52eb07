"use server";
// A payment's actions: refund, sandbox outcomes, and the developers page's test payment through
// scripted providers. Each passes the gate with the permission the matching API endpoint names
// (`dashboardOrThrow`, lib/platform/auth/policy.ts) and calls the same lib/ use case as the API.
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { refundBody } from "@/lib/claims/schema";
import { refundPayment } from "@/lib/claims/refund-payment";
import { simulatePayment, type SimulateAction } from "@/lib/outcomes/simulate-payment";
import { createPaymentBody, SIMULATE_ACTIONS } from "@/lib/payments/schema";
import { createPayment } from "@/lib/payments/create-payment";
import { parseSandboxBehaviourHeader } from "@/lib/payments/sandbox-behaviour";
import { parseSandboxSimulateHeader } from "@/lib/payments/sandbox-schedule";
import { replayRefund } from "@/lib/claims/replays";
import { amountField } from "@/server/actions/form-fields";

export async function refundAction(paymentId: string, input: { amount?: string; reason?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(refundBody, { amount: amountField(input.amount), ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}) }, "body");
    return onceForForm(d, "refund", formKey, { paymentId, body }, () => refundPayment(d.ctx, paymentId, body), (ref) => replayRefund(d.ctx, ref));
  });
}

export async function simulateAction(paymentId: string, action: SimulateAction, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayment");
    if (!SIMULATE_ACTIONS.includes(action)) throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return onceForForm(d, "simulate-payment", formKey, { paymentId, action }, () => simulatePayment(d.ctx, paymentId, action));
  });
}

/**
 * The developers page's "test the cascade" card (sandbox): a payment through scripted simulated
 * providers (Sandbox-Provider-Behaviour), answered with the payment or the cascade's refusal and
 * its attempts, so a tester sees what an integration would get.
 */
export async function testCascadeAction(input: { paymentMethodId?: string; amount?: string; steps: string[]; notices: string[]; outcome?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayment");
    const headers = new Headers({ "sandbox-provider-behaviour": [...input.steps.filter(Boolean), ...input.notices].join(",") });
    const behaviour = parseSandboxBehaviourHeader(headers);
    const simulate = parseSandboxSimulateHeader(input.outcome?.trim() ? input.outcome : null);
    const body = parseWith(createPaymentBody, { paymentMethodId: input.paymentMethodId ?? "sbx_card", amount: amountField(input.amount), ...testBuyer(input.paymentMethodId ?? "sbx_card") }, "body");
    const auth = await withShop(d);
    return onceForForm(d, "test-cascade", formKey, { body, behaviour, simulate }, async () => {
      try {
        const p = await createPayment(auth, body, { behaviour, simulate });
        return { kind: "created" as const, transactionId: p.transactionId, status: p.status };
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== "cascade_exhausted") throw err;
        const details = err.details as { reason?: string; attempts?: unknown[]; transactionId?: string };
        return { kind: "refused" as const, code: err.code, reason: details.reason ?? null, transactionId: details.transactionId ?? null, attempts: details.attempts ?? [] };
      }
    });
  });
}

/** A buyer each sandbox rail accepts (its document rule), for test payments made from the dashboard. */
const TEST_DOCUMENTS: Record<string, string> = { sbx_pix: "52998224725", sbx_boleto: "52998224725", sbx_br_card: "52998224725", sbx_pse: "1020304050", sbx_cash: "PEGL800101" };
const testBuyer = (rail: string) => ({ userName: "Ana Souza", userEmail: "ana@example.com", userPhone: "+525512345678", documentId: TEST_DOCUMENTS[rail] ?? "GODE561231GR8" });
