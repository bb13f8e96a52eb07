"use server";
// Every dashboard mutation. Server actions carry Next's CSRF defence (POST only, Origin must
// match the host); each one passes the gate with the permission it names (`dashboardOrThrow`,
// lib/auth/policy.ts: role and environment, answered with the API's own codes) and calls the
// same lib/ use case as the API with the signed-in merchant's context.
import { cookies } from "next/headers";
import { AuthError } from "next-auth";
import { signIn, signOut, SESSION_MAX_AGE_S } from "@/auth";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { parseWith } from "@/lib/http/validation";
import { ENV_COOKIE, dashboardOrThrow } from "@/server/dashboard";
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
import { withShop } from "@/server/dashboard";
import { executeSwapEndpoint, fundSandboxEndpoint, quoteSwapEndpoint, sendBody, simulatePayoutEndpoint, transferEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";
import { executeSwap, quoteSwap } from "@/lib/payouts/swap";
import { sendPayout } from "@/lib/payouts/send-payout";
import { simulatePayout } from "@/lib/payouts/simulate-payout";
import { onceForForm } from "@/lib/dashboard/once";
import { createPayment } from "@/lib/payments/create-payment";
import { createPaymentBody } from "@/lib/payments/schema";
import { parseSandboxBehaviourHeader } from "@/lib/payments/sandbox-behaviour";
import { parseSandboxSimulateHeader } from "@/lib/payments/sandbox-schedule";
import { acceptChargeback, simulateChargebackOutcome } from "@/lib/claims/decide-chargeback";
import { getClaim } from "@/lib/claims/get-claim";
import { createQrOrderBody } from "@/lib/qr/schema";
import { createQrOrder, replayQrOrder } from "@/lib/qr/create-order";
import { cancelQrOrder, simulateQrOrder } from "@/lib/qr/orders";
import { closeSettlement } from "@/lib/settlements/close-settlement";
import { setDestinationBody } from "@/lib/crypto-assets/schema";
import { setSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { simulateSettlement } from "@/lib/settlements/settle-batch";
import { createWithdrawalBody } from "@/lib/withdrawals/schema";
import { replayWithdrawal, requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { simulateWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import { createTopupEndpoint } from "@/lib/topups/schema";
import { createTopup, getTopup, simulateTopup } from "@/lib/topups/topups";
import { replayDeposit, replayFunding, replayPayout, replayRefund, replaySwap, replayTransfer } from "@/lib/http/replays";

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
    await dashboardOrThrow("read");
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

/** Concede a chargeback (it becomes lost: the amount and the fee leave the balance). */
export async function acceptClaimAction(claimId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("respondToDisputes");
    return onceForForm(d, "accept-claim", formKey, { claimId }, () => acceptChargeback(d.ctx, claimId), (ref) => getClaim(d.ctx, ref.id));
  });
}

export async function simulateClaimAction(claimId: string, action: "won" | "lost", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateDispute");
    if (action !== "won" && action !== "lost") throw new AppError("invalid_request", "Unknown outcome.", { param: "action" });
    return onceForForm(d, "simulate-claim", formKey, { claimId, action }, () => simulateChargebackOutcome(d.ctx, claimId, action));
  });
}

/** A counter charge: a QR order of the merchant's first shop (it must be a QR establishment). */
export async function createQrOrderAction(input: { amount?: string; merchantOrderId?: string; description?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const body = parseWith(createQrOrderBody, { amount: amountField(input.amount), merchantOrderId: input.merchantOrderId?.trim() || undefined, ...(input.description?.trim() ? { description: input.description.trim() } : {}) }, "body");
    const ctx = await withShop(d);
    return onceForForm(d, "qr-order", formKey, body, () => createQrOrder(ctx, body), (ref) => replayQrOrder(ctx, ref.id));
  });
}

export async function cancelQrOrderAction(orderId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const ctx = await withShop(d);
    return onceForForm(d, "qr-cancel", formKey, { orderId }, () => cancelQrOrder(ctx, orderId));
  });
}

export async function simulateQrOrderAction(orderId: string, action: "paid" | "expired", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayment");
    if (action !== "paid" && action !== "expired") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    const ctx = await withShop(d);
    return onceForForm(d, "qr-simulate", formKey, { orderId, action }, () => simulateQrOrder(ctx, orderId, action));
  });
}

/** Where settlements and withdrawals go (PUT /me/settlement-destination's use case and checks). */
export async function setSettlementDestinationAction(input: { asset?: string; network?: string; address?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageSettlements");
    const body = parseWith(setDestinationBody, { ...input, address: input.address?.trim() }, "body");
    return onceForForm(d, "settlement-destination", formKey, body, () => setSettlementDestination(d.ctx, body));
  });
}

/** Sandbox: close a settlement batch now (the daily job's work, for this merchant). */
export async function runSettlementAction(formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("runSettlement");
    return onceForForm(d, "settlement-run", formKey, {}, () => closeSettlement(d.ctx, { periodTo: new Date() }));
  });
}

export async function simulateSettlementAction(settlementId: string, action: "paid" | "failed", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    if (action !== "paid" && action !== "failed") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return onceForForm(d, "settlement-simulate", formKey, { settlementId, action }, () => simulateSettlement(d.ctx, settlementId, action));
  });
}

/** Withdraw available pay-in USD to the settlement destination (or another address). */
export async function withdrawAction(input: { amountUsd?: string; asset?: string; network?: string; address?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const destination = input.address?.trim() ? { asset: input.asset, network: input.network, address: input.address.trim() } : undefined;
    const body = parseWith(createWithdrawalBody, { amountUsd: amountField(input.amountUsd), ...(destination ? { destination } : {}) }, "body");
    return onceForForm(d, "withdraw", formKey, body, () => requestWithdrawal(d.ctx, body), (ref) => replayWithdrawal(d.ctx, ref.id));
  });
}

export async function simulateWithdrawalAction(withdrawalId: string, action: "completed" | "failed", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    if (action !== "completed" && action !== "failed") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return onceForForm(d, "withdrawal-simulate", formKey, { withdrawalId, action }, () => simulateWithdrawal(d.ctx, withdrawalId, action));
  });
}

/** A deposit address to top up the payout USD balance with stablecoins. */
export async function createTopupAction(input: { asset?: string; network?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const body = parseWith(createTopupEndpoint.body, input, "body");
    return onceForForm(d, "topup", formKey, body, () => createTopup(d.ctx, body), (ref) => getTopup(d.ctx, ref.id));
  });
}

export async function simulateTopupAction(topupId: string, amount: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    return onceForForm(d, "topup-simulate", formKey, { topupId, amount }, () => simulateTopup(d.ctx, topupId, amountField(amount)));
  });
}

export async function createWebhookAction(input: { url?: string; events: string[] }) {
  return runAction(async () => {
    // Creating shows the signing secret once: the stricter permission, as POST /webhooks names.
    const d = await dashboardOrThrow("seeSecrets");
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
    const d = await dashboardOrThrow("seeSecrets");
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

export async function simulateDepositAction(accountId: string, input: { amount?: string; payerName?: string; payerBank?: string; payerDocument?: string; trackingKey?: string; reference?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateDeposit");
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
    const ctx = await withShop(d);
    return onceForForm(d, "simulate-deposit", formKey, { accountId, body }, () => simulateDeposit(ctx, accountId, body), (ref) => replayDeposit(ctx, accountId, ref));
  });
}

export async function fundSandboxAction(input: { currency?: string; amount?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("fundSandbox");
    const body = parseWith(fundSandboxEndpoint.body, { currency: input.currency ?? "", amount: amountField(input.amount) }, "body");
    return onceForForm(d, "fund-sandbox", formKey, body, () => fundSandbox(d.ctx, body), () => replayFunding(d.ctx, body));
  });
}

export async function transferToPayoutAction(input: { amountUsd?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(transferEndpoint.body, { amountUsd: amountField(input.amountUsd) }, "body");
    return onceForForm(d, "transfer", formKey, body, () => transferToPayout(d.ctx, body), (ref) => replayTransfer(d.ctx, ref));
  });
}

export async function quoteSwapAction(input: { currency?: string; amountUsd?: string }) {
  return runAction(async () => {
    // A quote is a row (and the first step of moving money), so it takes the same permission.
    const d = await dashboardOrThrow("moveMoney");
    return quoteSwap(d.ctx, parseWith(quoteSwapEndpoint.query, { currency: input.currency ?? "", amountUsd: (input.amountUsd ?? "").trim().replace(",", ".") }, "query"));
  });
}

export async function executeSwapAction(quoteId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(executeSwapEndpoint.body, { quoteId }, "body");
    return onceForForm(d, "swap", formKey, body, () => executeSwap(d.ctx, body), (ref) => replaySwap(d.ctx, ref));
  });
}

export async function sendPayoutAction(input: { methodId?: string; amount?: string; recipient?: Record<string, string | undefined> }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const recipient = Object.fromEntries(Object.entries(input.recipient ?? {}).flatMap(([k, v]) => (optionalText(v) ? [[k, optionalText(v)]] : [])));
    const body = parseWith(sendBody, { methodId: input.methodId ?? "", amount: amountField(input.amount), recipient }, "body");
    return onceForForm(d, "send-payout", formKey, body, () => sendPayout(d.ctx, body), (ref) => replayPayout(d.ctx, ref));
  });
}

export async function simulatePayoutAction(payoutId: string, action: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayout");
    const body = parseWith(simulatePayoutEndpoint.body, { action }, "body");
    return onceForForm(d, "simulate-payout", formKey, { payoutId, ...body }, () => simulatePayout(d.ctx, payoutId, body.action));
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
const TEST_DOCUMENTS: Record<string, string> = { sbx_pix: "52998224725", sbx_pse: "1020304050", sbx_cash: "PEGL800101" };
const testBuyer = (rail: string) => ({ userName: "Ana Souza", userEmail: "ana@example.com", userPhone: "+525512345678", documentId: TEST_DOCUMENTS[rail] ?? "GODE561231GR8" });
