// POST /payments: validate, price, route through the provider cascade, and write the pending
// transaction with its attempts (and any scheduled sandbox outcome).
//
// Production (decisions.md "Money leaves at most once"): our row is committed BEFORE any provider
// is called, and every attempt carries its id as the provider's reference, so no crash can leave
// a live charge that nothing of ours can attach to. The route is written after the cascade. When
// the cascade ends in an error, the row is removed if every provider answered clearly (declined,
// or no instructions): no provider holds a charge. If an attempt's answer was unknown (timeout,
// 5xx, unreadable), that charge may be live: the row stays pending, so a late notice for it
// completes this transaction, once (lib/outcomes/apply-provider-notice.ts matches it by our reference).
// The sandbox calls no provider: its row is written once, after its local cascade.
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { isCurrency } from "@/lib/money/currency";
import { rateFor } from "@/lib/money/rates";
import { buyerPrice, creditUsd } from "@/lib/money/price";
import { railLimits, toIso3, type Rail } from "@/lib/rails/rails";
import { routableProviders, shopRails } from "@/lib/catalog/list-payment-methods";
import { isCascadeDecline, runCascade, type Attempt, type CascadeResult } from "@/lib/payments/cascade";
import { failPayment } from "@/lib/payments/transitions";
import { documentTypeOf } from "@/lib/routing/select";
import { expiresAtFor } from "@/lib/catalog/expiry";
import { behaviourActions, type SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";
import { priceCharge } from "@/lib/pricing/fees";
import { checkRailRequirements } from "@/lib/payments/requirements";
import { presentCreated } from "@/lib/payments/present";
import { sandboxOutcomeRows } from "@/lib/payments/sandbox-schedule";
import type { Prisma } from "@/lib/generated/prisma/client";
import { insertTransaction } from "@/lib/payments/store";
import { JOB_SIGNALS, wakeJobs } from "@/lib/platform/outbox/wake";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import type { PresentableTransaction } from "@/lib/payments/present";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { Requirement } from "@/lib/rails/rails";
import type { Environment } from "@/lib/generated/prisma/enums";

export const MAX_HEADLINE_USD_MINOR = 10_000_000n; // 100,000.00 USD

export type CreatePaymentOptions = {
  /** Sandbox-Provider-Behaviour header, already parsed (sandbox only). */
  behaviour?: SandboxBehaviour;
  /** Sandbox-Simulate header value, already validated. */
  simulate?: string;
  /** Hosted checkout and payment links require the buyer's name, email and document. */
  requireBuyer?: boolean;
  requestIp?: string | null;
  /** A checkout session's amount, fixed when the session was created (no second conversion). */
  presentment?: { usd: bigint; currency: string; inputMinor: bigint };
  /** The id to give the transaction (a checkout session claims it before the cascade runs). */
  id?: string;
  /**
   * The payer is not known when the charge is made (a QR code at a counter: the payer's bank
   * identifies them when paying), so the rail's buyer fields are not asked for.
   */
  payerUnknown?: boolean;
  /** The QR order this payment carries the money of (its id is written on the row, qrOrderId). */
  qrOrderId?: string;
  /** Runs in the database transaction that inserts the payment (a checkout session completes there). */
  inTransaction?: (tx: Prisma.TransactionClient) => Promise<void>;
};

async function resolveRail(auth: AuthContext, shopId: string, input: CreatePaymentInput, country: string | null) {
  const rails = await shopRails(shopId, auth.environment);
  if (input.paymentMethodId) {
    const entry = rails.find((r) => r.rail.paymentMethodId === input.paymentMethodId);
    if (!entry) {
      throw new AppError("cascade_exhausted", `No provider routes payment method ${input.paymentMethodId} for this shop; list GET /payment-methods for valid ids.`, {
        param: "paymentMethodId",
        details: { reason: "no_provider_for_method_region", attempts: [], paymentMethodEnabledForShop: false },
      });
    }
    return entry;
  }
  if (!input.paymentMethod) throw new AppError("missing_field", "Send `paymentMethodId` (from GET /payment-methods).", { param: "paymentMethodId" });
  const wanted = country ?? "USA";
  const entry = rails.find((r) => r.enabled && r.rail.method === input.paymentMethod && r.rail.countryIso3 === wanted) ?? rails.find((r) => r.rail.method === input.paymentMethod && r.rail.countryIso3 === wanted);
  if (!entry) {
    throw new AppError("cascade_exhausted", `No rail for method ${input.paymentMethod} in ${wanted}.`, {
      param: "paymentMethod",
      details: { reason: "no_provider_for_method_region", attempts: [], paymentMethodEnabledForShop: false },
    });
  }
  return entry;
}

function limitError(bound: "min" | "max", min: bigint, max: bigint, currency: string, message: string) {
  return new AppError("amount_out_of_limits", message, {
    param: "amount",
    details: { limit: { min: toMajor(min, currency), max: toMajor(max, currency), currency }, boundViolated: bound },
  });
}

function checkLimits(rail: Rail, usd: bigint, local: bigint) {
  const { minLocal, maxLocal, minUsd, maxUsd } = railLimits(rail, MAX_HEADLINE_USD_MINOR);
  if (local < minLocal || local > maxLocal) {
    const bound = local < minLocal ? "min" : "max";
    throw limitError(bound, minLocal, maxLocal, rail.currency, `${rail.name} accepts ${rail.minLocal}-${rail.maxLocal} ${rail.currency}; this charge is ${toMajor(local, rail.currency)} ${rail.currency}.`);
  }
  if (usd < minUsd || usd > maxUsd) {
    throw limitError(usd < minUsd ? "min" : "max", minUsd, maxUsd, "USD", `${rail.name} accepts ${toMajor(minUsd, "USD")}-${toMajor(maxUsd, "USD")} USD per transaction.`);
  }
}

/**
 * The shop a charge is for: the credential's, or, for a merchant-wide credential, the `shopId`
 * in the body (which must be one of the merchant's shops).
 */
export async function resolveShop(auth: AuthContext, input: CreatePaymentInput): Promise<{ id: string; name: string }> {
  if (input.merchantId && input.merchantId !== auth.merchant.id) throw new AppError("forbidden", "`merchantId` is not the merchant of this credential.", { param: "merchantId" });
  if (auth.shop) {
    if (input.shopId && input.shopId !== auth.shop.id) throw new AppError("forbidden", "`shopId` is not the shop of this credential.", { param: "shopId" });
    return auth.shop;
  }
  if (!input.shopId) throw new AppError("shop_required", "This credential covers the whole merchant: send `shopId` to say which shop charges.", { param: "shopId" });
  const shop = await db().shop.findFirst({ where: { id: input.shopId, merchantId: auth.merchant.id }, select: { id: true, name: true, status: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${input.shopId} for this merchant.`, { param: "shopId" });
  if (shop.status === "suspended") throw new AppError("shop_suspended", "The shop is suspended. Contact support.");
  return shop;
}

/**
 * The USD headline of an amount sent in a presentment currency (4.4): the merchant's credit of
 * the price rule (lib/money/price.ts); at most 100,000 USD. Shared by POST /payments and
 * checkout sessions.
 */
export async function headlineUsd(environment: Environment, amount: unknown, currencyInput: string | undefined) {
  const currency = (currencyInput ?? "USD").toUpperCase();
  if (!isCurrency(currency)) throw new AppError("unsupported_currency", `Currency ${currency} is not supported.`, { param: "currency" });
  const inputMinor = parseAmount(amount, currency);
  const inputFx = currency === "USD" ? "1" : await rateFor(environment, currency);
  if (!inputFx) throw new AppError("fx_unavailable", `No current FX rate for ${currency}; send the amount in USD.`, { param: "currency", details: { currency } });
  const usd = creditUsd({ currency, inputMinor }, inputFx);
  if (usd > MAX_HEADLINE_USD_MINOR || usd <= 0n) {
    throw limitError(usd <= 0n ? "min" : "max", 1n, MAX_HEADLINE_USD_MINOR, "USD", "The USD amount of a payment must be between 0.01 and 100,000.");
  }
  return { usd, currency, inputMinor };
}

/**
 * What the buyer pays in the rail's currency: the price rule of lib/money/price.ts, with the
 * asked currency's current rate read when the rule needs it (a third currency).
 */
export async function buyerLocal(environment: Environment, asked: { currency: string; inputMinor: bigint }, railCurrency: string, localRate: string): Promise<bigint> {
  const third = asked.currency !== "USD" && asked.currency !== railCurrency;
  const inputFx = third ? await rateFor(environment, asked.currency) : null;
  if (third && !inputFx) throw new AppError("fx_unavailable", `No current FX rate for ${asked.currency}; send the amount in USD.`, { param: "currency", details: { currency: asked.currency } });
  return buyerPrice(asked, railCurrency, { input: inputFx, rail: localRate });
}

export async function createPayment(auth: AuthContext, input: CreatePaymentInput, opts: CreatePaymentOptions = {}) {
  if (opts.behaviour && auth.environment !== "sandbox") {
    throw new AppError("production_key_refused", "Sandbox-Provider-Behaviour scripts the sandbox's simulated providers; production charges go to real providers.", { param: "Sandbox-Provider-Behaviour" });
  }
  const shop = await resolveShop(auth, input);
  // Country: normalised to ISO-3; inferred from the rail when absent.
  let country: string | null = null;
  if (input.country) {
    country = toIso3(input.country);
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  const { rail, enabled } = await resolveRail(auth, shop.id, input, country);
  if (!enabled) throw new AppError("method_not_enabled_for_shop", `Payment method ${rail.paymentMethodId} is not enabled for this shop.`, { param: "paymentMethodId" });
  if (country && country !== rail.countryIso3 && !rail.sandbox) {
    throw new AppError("unsupported_country", `${rail.name} serves ${rail.countryIso3}, not ${country}.`, { param: "country" });
  }

  const { usd, currency, inputMinor } = opts.presentment ?? (await headlineUsd(auth.environment, input.amount, input.currency));
  const localRate = await rateFor(auth.environment, rail.currency);
  if (!localRate) throw new AppError("fx_unavailable", `No current FX rate for ${rail.currency}.`, { details: { currency: rail.currency } });
  const local = await buyerLocal(auth.environment, { currency, inputMinor }, rail.currency, localRate);
  checkLimits(rail, usd, local);

  // The hosted checkout needs the buyer (contract 4.4), on a session and on POST /payments alike.
  const extra: Requirement[] = opts.requireBuyer || input.hostedCheckout ? ["userName", "userEmail", "documentId"] : [];
  if (!opts.payerUnknown) checkRailRequirements(rail, input, extra);
  // Checked before any provider is called; the deadline itself counts from the row's creation.
  const expiryFrom = (at: Date) => expiresAtFor(rail, at, input.expiresInMinutes);
  expiryFrom(new Date());

  const price = priceCharge(usd, auth.merchant.tier, rail);
  const id = opts.id ?? newId("transaction");
  const userIp = input.userIp ?? opts.requestIp ?? null;
  const route = () =>
    runCascade(
      auth.environment,
      {
        transactionId: id,
        rail,
        amountLocalMinor: local,
        currency: rail.currency,
        buyer: { name: input.userName, email: input.userEmail, phone: input.userPhone, documentId: input.documentId, ip: userIp ?? undefined },
        notifyUrl: `${config().APP_URL}/api/v1/providers/{provider}/notifications`,
      },
      {
        enabledForShop: enabled,
        behaviour: opts.behaviour,
        shopId: shop.id,
        facts: { paymentMethodId: rail.paymentMethodId, amountUsdMinor: usd, country: rail.countryIso3, currency, documentType: documentTypeOf(input.documentId, rail.countryIso3) },
      },
    );
  const callsOut = auth.environment === "production";
  // Until the cascade has run, the row names the provider about to be asked first.
  const unrouted: CascadeResult = { provider: routableProviders(rail, auth.environment)[0] ?? "none", providerRef: null as unknown as string, paymentFormUrl: null as unknown as string, instructions: null, attempts: [] };
  let cascade = unrouted;
  // A scripted sandbox cascade that ends unknown keeps its row, as production does (below).
  let keptAfter: AppError | null = null;
  if (!callsOut) {
    try {
      cascade = await route();
    } catch (err) {
      const unknown = err instanceof AppError && opts.behaviour ? unknownAttempt(err) : undefined;
      if (!unknown) throw err;
      keptAfter = err as AppError;
      cascade = { ...unrouted, provider: unknown.provider, attempts: (err as AppError & { details: { attempts: Attempt[] } }).details.attempts };
    }
  }

  const now = new Date();
  const row: PresentableTransaction = {
    id,
    merchantId: auth.merchant.id,
    shopId: shop.id,
    environment: auth.environment,
    status: "pending",
    amountUsd: usd,
    amountLocal: local,
    currencyLocal: rail.currency,
    inputCurrency: currency !== "USD" ? currency : null,
    inputAmount: currency !== "USD" ? inputMinor : null,
    paymentMethodId: rail.paymentMethodId,
    method: rail.method,
    railName: rail.name,
    country: rail.countryIso3,
    feePlatform: price.platformPercent + price.flat,
    feeProvider: price.provider,
    feeNetwork: price.network,
    reserveAmount: price.reserve,
    settlementDelay: rail.settlementDelay,
    provider: cascade.provider,
    providerRef: cascade.providerRef,
    paymentFormUrl: cascade.paymentFormUrl,
    instructions: cascade.instructions as Prisma.JsonValue,
    hostedCheckout: input.hostedCheckout ?? false,
    returnUrl: input.returnUrl ?? null,
    merchantOrderId: input.merchantOrderId ?? null,
    qrOrderId: opts.qrOrderId ?? null,
    tag1: input.tag1 ?? null,
    tag2: input.tag2 ?? null,
    tag3: input.tag3 ?? null,
    userName: input.userName ?? null,
    userEmail: input.userEmail ?? null,
    userPhone: input.userPhone ?? null,
    userIp,
    expiresAt: expiryFrom(now),
    createdAt: now,
    attempts: cascade.attempts as unknown as Prisma.JsonValue,
    settlementStatus: "pending",
    settleAt: null,
    refundedLocal: 0n,
    pendingDebited: 0n,
    reserveReleaseAt: null,
    reserveReleasedAt: null,
    completedAt: null,
  };
  if (callsOut) return routeCommitted(row, localRate, route, opts);
  // One statement on the hot path; with a scheduled sandbox outcome, both rows commit together.
  const scheduled = auth.environment === "sandbox" ? [...(opts.simulate ? sandboxOutcomeRows(id, opts.simulate, now) : []), ...behaviourActions(id, opts.behaviour, now)] : [];
  if (scheduled.length || opts.inTransaction) {
    await db().$transaction(async (tx) => {
      await insertTransaction(row, localRate, tx);
      await bindIdempotency(tx, { resource: "payment", id });
      if (scheduled.length) await tx.scheduledAction.createMany({ data: scheduled });
      await opts.inTransaction?.(tx);
    });
    for (const a of scheduled) wakeJobs(JOB_SIGNALS.scheduledActionCreated, { id: a.id, dueAt: a.dueAt.toISOString() });
  } else if (keptAfter) {
    await insertTransaction(row, localRate);
  } else {
    // The insert is this request's one write: its answer is stored with it (one statement in all).
    const answer = presentCreated(row);
    await insertTransaction(row, localRate, undefined, answer);
    return answer;
  }
  if (keptAfter) throw withTransactionId(keptAfter, id);
  return presentCreated(row);
}

/** The last attempt whose outcome is unknown (timeout, 5xx, unreadable), if the cascade ended with one. */
function unknownAttempt(err: AppError): Attempt | undefined {
  const attempts = (err.details as { attempts?: Attempt[] } | undefined)?.attempts ?? [];
  return [...attempts].reverse().find((a) => a.outcome === "unavailable");
}

/** cascade_exhausted naming the payment kept pending, so a late `payment.completed` can be matched to it (or a decline naming the failed payment). */
function withTransactionId(err: AppError, transactionId: string, status: "pending" | "failed" = "pending"): AppError {
  const message = status === "failed" ? `${err.message} The payment ${transactionId} is failed.` : `${err.message} A provider's answer was lost, so the payment ${transactionId} stays pending: it may still complete, and a webhook will say so.`;
  return new AppError(err.code, message, {
    param: err.param,
    declineCode: err.declineCode,
    details: { ...(err.details as Record<string, unknown>), transactionId },
  });
}

/** Production: commit the row, then call the providers, then write the route (see the header). */
async function routeCommitted(row: PresentableTransaction, localRate: string, route: () => Promise<CascadeResult>, opts: CreatePaymentOptions) {
  await insertTransaction(row, localRate);
  let cascade: CascadeResult;
  try {
    cascade = await route();
  } catch (err) {
    const attempts = err instanceof AppError ? ((err.details as { attempts?: Attempt[] } | undefined)?.attempts ?? []) : [];
    if (isCascadeDecline(err)) {
      // A hard decline (decisions.md "Declines and routing"): the payment fails with its
      // declineCode and attempts, and payment.failed says why; a provider's late PAID still completes it.
      const last = attempts.at(-1);
      await failPayment(row.id, "failed", {
        inTransaction: async (tx) => {
          await tx.transaction.update({ where: { id: row.id }, data: { provider: last?.provider ?? row.provider, attempts: attempts as unknown as Prisma.InputJsonValue, declineCode: err.declineCode, routingVersion: last?.routingVersion ?? null } });
        },
      });
      throw withTransactionId(err, row.id, "failed");
    }
    const unknown = err instanceof AppError ? unknownAttempt(err) : undefined;
    if (!unknown) {
      // Every provider answered clearly: none holds a charge, so nothing of this request remains.
      await db().transaction.deleteMany({ where: { id: row.id, status: "pending" } });
      throw err;
    }
    await db().transaction.updateMany({ where: { id: row.id }, data: { provider: unknown.provider, attempts: attempts as unknown as Prisma.InputJsonValue, declineCode: (err as AppError).declineCode ?? null } });
    throw withTransactionId(err as AppError, row.id);
  }
  const routed = { ...row, provider: cascade.provider, providerRef: cascade.providerRef, paymentFormUrl: cascade.paymentFormUrl, instructions: cascade.instructions as Prisma.JsonValue, attempts: cascade.attempts as unknown as Prisma.JsonValue };
  await db().$transaction(async (tx) => {
    await tx.transaction.update({
      where: { id: row.id },
      data: { provider: routed.provider, providerRef: routed.providerRef, paymentFormUrl: routed.paymentFormUrl, instructions: (cascade.instructions ?? undefined) as Prisma.InputJsonValue | undefined, attempts: cascade.attempts as unknown as Prisma.InputJsonValue, routingVersion: cascade.routingVersion ?? null },
    });
    await opts.inTransaction?.(tx);
  });
  return presentCreated(routed);
}
