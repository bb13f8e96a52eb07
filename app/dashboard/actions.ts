"use server";
// Every dashboard mutation. Server actions carry Next's CSRF defence (POST only, Origin must
// match the host); each one re-reads the session, checks the role on the server, and calls the
// same lib/ use case as the API with the signed-in merchant's context.
import { cookies } from "next/headers";
import { AuthError } from "next-auth";
import { signIn, signOut, SESSION_MAX_AGE_S } from "@/auth";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { parseWith } from "@/lib/http/validation";
import { ENV_COOKIE, dashboardOrThrow } from "@/lib/dashboard/session";
import { runAction, type ActionResult } from "@/lib/dashboard/action-result";
import { refundBody } from "@/lib/claims/schema";
import { refundPayment } from "@/lib/claims/refund-payment";
import { simulatePayment, type SimulateAction } from "@/lib/payments/simulate-payment";
import { SIMULATE_ACTIONS } from "@/lib/payments/schema";
import { createWebhookBody, updateWebhookBody } from "@/lib/webhooks/schema";
import { createSubscription, deleteSubscription, rotateSecret, updateSubscription } from "@/lib/webhooks/subscriptions";
import { replayDelivery } from "@/lib/webhooks/deliveries";
import { rollSecretKey } from "@/lib/merchants/manage-keys";
import { actorOf } from "@/lib/accounts/record-security-event";
import { simulateDepositBody } from "@/lib/deposits/schema";
import { simulateDeposit } from "@/lib/deposits/simulate-deposit";
import { withShop } from "@/lib/dashboard/session";
import { executeSwapEndpoint, fundSandboxEndpoint, quoteSwapEndpoint, sendBody, simulatePayoutEndpoint, transferEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";
import { executeSwap, quoteSwap } from "@/lib/payouts/swap";
import { sendPayout } from "@/lib/payouts/send-payout";
import { simulatePayout } from "@/lib/payouts/simulate-payout";

export type SignInState = { error?: string; email?: string; needCode?: boolean };

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const code = String(form.get("code") ?? "").trim();
  if (!email || !password) return { error: "Enter your email and password.", email };
  try {
    await signIn("credentials", { email, password, ...(code ? { code } : {}), redirectTo: "/dashboard" });
  } catch (err) {
    if (err instanceof AuthError) {
      const reason = (err as AuthError & { code?: string }).code;
      if (reason === "code_required") return { email, needCode: true };
      if (reason === "code_invalid") return { email, needCode: true, error: "That code is not valid or was used already. Enter the current code from your app, or a recovery code." };
      return { email, error: reason === "throttled" ? "Too many failed attempts. Wait 15 minutes and try again." : "Incorrect email or password." };
    }
    throw err; // the redirect after a successful sign-in
  }
  return {};
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/dashboard/sign-in" });
}

export async function setEnvironmentAction(environment: "sandbox" | "production"): Promise<ActionResult<{ environment: string }>> {
  return runAction(async () => {
    await dashboardOrThrow();
    if (environment !== "sandbox" && environment !== "production") throw new AppError("invalid_request", "Unknown environment.", { param: "environment" });
    (await cookies()).set(ENV_COOKIE, environment, { httpOnly: true, sameSite: "lax", path: "/", secure: config().APP_URL.startsWith("https://"), maxAge: SESSION_MAX_AGE_S });
    return { environment };
  });
}

/** Form fields are strings; the API takes numbers. A non-number stays a string so the use case answers amount_invalid. */
function amountField(v: string | undefined): unknown {
  const t = (v ?? "").trim();
  if (t === "") return undefined;
  const n = Number(t.replace(",", "."));
  return Number.isFinite(n) ? n : t;
}

export async function refundAction(paymentId: string, input: { amount?: string; reason?: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(refundBody, { amount: amountField(input.amount), ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}) }, "body");
    return refundPayment(d.ctx, paymentId, body);
  });
}

export async function simulateAction(paymentId: string, action: SimulateAction) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    if (d.environment !== "sandbox") throw new AppError("simulate_sandbox_only", "Simulations exist in the sandbox only; switch to sandbox.");
    if (!SIMULATE_ACTIONS.includes(action)) throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return simulatePayment(d.ctx, paymentId, action);
  });
}

export async function createWebhookAction(input: { url?: string; events: string[] }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageWebhooks");
    if (!d.can("seeSecrets")) throw new AppError("forbidden", "Your role cannot see signing secrets.");
    const body = parseWith(createWebhookBody, { ...(input.url?.trim() ? { url: input.url.trim() } : {}), events: input.events }, "body");
    return createSubscription(d.ctx, body);
  });
}

export async function updateWebhookAction(id: string, input: { url?: string; events?: string[]; status?: "enabled" | "disabled" }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageWebhooks");
    const body = parseWith(updateWebhookBody, { ...input, ...(input.url !== undefined ? { url: input.url.trim() || undefined } : {}) }, "body");
    return updateSubscription(d.ctx, id, body);
  });
}

export async function deleteWebhookAction(id: string) {
  return runAction(async () => deleteSubscription((await dashboardOrThrow("manageWebhooks")).ctx, id));
}

export async function rotateWebhookSecretAction(id: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageWebhooks");
    if (!d.can("seeSecrets")) throw new AppError("forbidden", "Your role cannot see signing secrets.");
    return rotateSecret(d.ctx, id);
  });
}

export async function replayDeliveryAction(id: string, deliveryId: string) {
  return runAction(async () => replayDelivery((await dashboardOrThrow("manageWebhooks")).ctx, id, deliveryId));
}

export async function rollSecretKeyAction(keyPairId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("seeSecrets");
    const pair = await db().apiKeyPair.findFirst({ where: { id: keyPairId, merchantId: d.merchant.id, environment: d.environment, revokedAt: null }, select: { shopId: true } });
    if (!pair) throw new AppError("invalid_request", "No such key in this environment.", { param: "keyPairId" });
    if (!pair.shopId) throw new AppError("invalid_request", "Merchant-wide keys are rolled by the operator.", { param: "keyPairId" });
    const rolled = await rollSecretKey({ shopId: pair.shopId, environment: d.environment, actor: actorOf(d.ctx) });
    return { keyPairId: rolled.keyPairId, secretKey: rolled.secretKey };
  });
}

/** Optional text fields: an empty input is "not given", as in an API body without the field. */
function optionalText(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

export async function simulateDepositAction(accountId: string, input: { amount?: string; payerName?: string; payerBank?: string; payerDocument?: string; trackingKey?: string; reference?: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    // The API refuses a live key here in its wrapper (sandboxOnly); the dashboard says the same.
    if (d.environment !== "sandbox") throw new AppError("production_key_refused", "Simulated transfers exist in the sandbox only; switch to sandbox.");
    const body = parseWith(
      simulateDepositBody,
      {
        amount: amountField(input.amount),
        payerName: input.payerName ?? "",
        payerBank: input.payerBank ?? "",
        payerDocument: optionalText(input.payerDocument),
        trackingKey: optionalText(input.trackingKey),
        reference: optionalText(input.reference),
      },
      "body",
    );
    return simulateDeposit(await withShop(d), accountId, body);
  });
}

export async function fundSandboxAction(input: { currency?: string; amount?: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    return fundSandbox(d.ctx, parseWith(fundSandboxEndpoint.body, { currency: input.currency ?? "", amount: amountField(input.amount) }, "body"));
  });
}

export async function transferToPayoutAction(input: { amountUsd?: string }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    return transferToPayout(d.ctx, parseWith(transferEndpoint.body, { amountUsd: amountField(input.amountUsd) }, "body"));
  });
}

export async function quoteSwapAction(input: { currency?: string; amountUsd?: string }) {
  return runAction(async () => {
    // A quote is a row (and the first step of moving money), so it takes the same permission.
    const d = await dashboardOrThrow("moveMoney");
    return quoteSwap(d.ctx, parseWith(quoteSwapEndpoint.query, { currency: input.currency ?? "", amountUsd: (input.amountUsd ?? "").trim().replace(",", ".") }, "query"));
  });
}

export async function executeSwapAction(quoteId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    return executeSwap(d.ctx, parseWith(executeSwapEndpoint.body, { quoteId }, "body"));
  });
}

export async function sendPayoutAction(input: { methodId?: string; amount?: string; recipient?: Record<string, string | undefined> }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const recipient = Object.fromEntries(Object.entries(input.recipient ?? {}).flatMap(([k, v]) => (optionalText(v) ? [[k, optionalText(v)]] : [])));
    return sendPayout(d.ctx, parseWith(sendBody, { methodId: input.methodId ?? "", amount: amountField(input.amount), recipient }, "body"));
  });
}

export async function simulatePayoutAction(payoutId: string, action: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    return simulatePayout(d.ctx, payoutId, parseWith(simulatePayoutEndpoint.body, { action }, "body").action);
  });
}
