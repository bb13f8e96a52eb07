// Checkout session rows -> the session resource (2.5). URLs are built from APP_URL only, never
// from request headers.
import { config } from "@/lib/platform/config";
import { toMajor } from "@/lib/money/amount";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

export function sessionPageUrl(token: string): string {
  return `${config().APP_URL}/checkout/${token}`;
}

export function presentSession(s: CheckoutSession) {
  return {
    sessionId: s.id,
    token: s.id,
    checkoutUrl: sessionPageUrl(s.id),
    paymentMethodId: s.paymentMethodId,
    status: s.status === "completed" ? ("completed" as const) : ("awaiting_method" as const),
    amount: toMajor(s.amountUsd, "USD"),
    currency: "USD" as const,
    ...(s.inputCurrency && s.inputAmount !== null ? { inputCurrency: s.inputCurrency, inputAmount: toMajor(s.inputAmount, s.inputCurrency) } : {}),
    country: s.country,
    customer: { firstName: s.firstName, lastName: s.lastName, email: s.email, phone: s.phone },
    customerIp: s.customerIp,
    merchantOrderId: s.merchantOrderId,
    returnUrl: s.returnUrl,
    expiresAt: s.expiresAt.toISOString(),
    completedTxId: s.completedTxId,
    allowRetry: s.allowRetry,
    previousSessionId: s.previousSessionId,
    nextSessionId: s.nextSessionId,
  };
}
