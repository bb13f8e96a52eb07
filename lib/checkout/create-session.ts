// POST /checkout/sessions. Selector mode stores a session for the hosted page (nothing is sent
// to a provider until the buyer picks a method); one-shot mode is POST /payments with
// hostedCheckout true and no session row (3.2).
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { toIso3 } from "@/lib/rails/rails";
import { createPayment } from "@/lib/payments/create-payment";
import { resolveShop } from "@/lib/payments/create/resolve";
import { headlineUsd } from "@/lib/payments/create/price";
import { offeredMethods } from "@/lib/checkout/offered-methods";
import { presentSession } from "@/lib/checkout/present";
import { inBoundTransaction } from "@/lib/platform/idempotency/bind";
import { SESSION_TTL_MS, type CreateSessionInput, type OneShotSessionInput, type SelectorSessionInput } from "@/lib/checkout/schema";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function createCheckoutSession(auth: AuthContext, input: CreateSessionInput, opts: { customerIp: string | null }) {
  return input.mode === "one_shot" ? createOneShot(auth, input, opts.customerIp) : createSelectorSession(auth, input, opts.customerIp);
}

async function createSelectorSession(auth: AuthContext, input: SelectorSessionInput, customerIp: string | null) {
  const shop = await resolveShop(auth, input);
  let country: string | null = null;
  if (input.country) {
    country = toIso3(input.country);
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  const { usd, currency, inputMinor } = await headlineUsd(auth.environment, input.amount, input.currency);

  // A session that could never be paid is refused now, not when the buyer arrives.
  const methods = await offeredMethods(shop.id, auth.environment, country, { usd, currency, inputMinor });
  if (methods.length === 0) {
    throw new AppError("cascade_exhausted", country ? `This shop has no payment method that can be routed in ${country}.` : "This shop has no payment method that can be routed.", {
      param: country ? "country" : undefined,
      details: { reason: "no_provider_for_method_region", attempts: [] },
    });
  }
  if (!methods.some((m) => m.fits)) {
    throw new AppError("amount_out_of_limits", `No payment method of this shop${country ? ` in ${country}` : ""} accepts ${toMajor(usd, "USD")} USD.`, {
      param: "amount",
      details: { methods: methods.map((m) => ({ paymentMethodId: m.rail.paymentMethodId, minTxUsd: m.rail.minTxUsd, maxTxUsd: m.rail.maxTxUsd })) },
    });
  }

  const now = new Date();
  const row = await inBoundTransaction((tx) => tx.checkoutSession.create({
    data: {
      id: newId("checkoutSession"),
      merchantId: auth.merchant.id,
      shopId: shop.id,
      environment: auth.environment,
      amountUsd: usd,
      inputCurrency: currency !== "USD" ? currency : null,
      inputAmount: currency !== "USD" ? inputMinor : null,
      country,
      firstName: input.customer.firstName,
      lastName: input.customer.lastName,
      email: input.customer.email,
      phone: input.customer.phone,
      documentId: input.customer.documentId ?? null,
      customerIp,
      merchantOrderId: input.merchantOrderId ?? null,
      returnUrl: input.returnUrl ?? null,
      expiresInMinutes: input.expiresInMinutes ?? null,
      allowRetry: input.allowRetry ?? true,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      createdAt: now,
    },
  }), (r) => ({ resource: "checkout_session", id: r.id }));
  return presentSession(row);
}

async function createOneShot(auth: AuthContext, input: OneShotSessionInput, customerIp: string | null) {
  const { customer, ...payment } = input;
  const fullName = [customer?.firstName, customer?.lastName].filter(Boolean).join(" ");
  const created = await createPayment(
    auth,
    {
      ...payment,
      userName: payment.userName ?? (fullName || undefined),
      userEmail: payment.userEmail ?? customer?.email,
      documentId: payment.documentId ?? customer?.documentId,
      userPhone: payment.userPhone ?? customer?.phone,
      hostedCheckout: true,
    },
    { requireBuyer: true, requestIp: customerIp },
  );
  return presentOneShot(created);
}

/** The one-shot answer from the created payment (also re-rendered for an idempotent replay). */
export function presentOneShot(created: Awaited<ReturnType<typeof createPayment>>) {
  return {
    sessionId: created.transactionId,
    transactionId: created.transactionId,
    checkoutUrl: "checkoutUrl" in created ? created.checkoutUrl : "",
    paymentMethodId: created.paymentMethodId,
    status: created.status,
    amount: created.amount,
    currency: created.currency,
    ...("inputCurrency" in created ? { inputCurrency: created.inputCurrency, inputAmount: created.inputAmount } : {}),
    amountLocal: created.amountLocal,
    currencyLocal: created.currencyLocal,
    expiresAt: created.expiresAt,
  };
}
