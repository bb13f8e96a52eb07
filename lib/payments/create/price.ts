// POST /payments, stage 3 (lib/payments/create-payment.ts): the amounts. The USD headline, what
// the buyer pays in the rail's currency, the rail's limits and fields, the deadline, and the fees.
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { parseAmount } from "@/lib/money/parse-amount";
import { isCurrency } from "@/lib/money/currency";
import { rateFor } from "@/lib/money/rates";
import { buyerPrice, creditUsd } from "@/lib/money/price";
import { railLimits, type Rail, type Requirement } from "@/lib/rails/rails";
import { expiresAtFor } from "@/lib/catalog/expiry";
import { priceCharge } from "@/lib/pricing/fees";
import { checkRailRequirements } from "@/lib/payments/requirements";
import { chooseForPayment } from "@/lib/installments/choose";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { CreatePaymentOptions } from "@/lib/payments/create/options";
import type { Environment } from "@/lib/generated/prisma/enums";

export const MAX_HEADLINE_USD_MINOR = 10_000_000n; // 100,000.00 USD

/** Stage 3, price: every amount the payment row holds, checked against the rail before any provider is asked. */
export async function pricePayment(auth: AuthContext, shopId: string, rail: Rail, input: CreatePaymentInput, opts: CreatePaymentOptions) {
  const { usd, currency, inputMinor } = opts.presentment ?? (await headlineUsd(auth.environment, input.amount, input.currency));
  const localRate = await rateFor(auth.environment, rail.currency);
  if (!localRate) throw new AppError("fx_unavailable", `No current FX rate for ${rail.currency}.`, { details: { currency: rail.currency } });
  const local = await buyerLocal(auth.environment, { currency, inputMinor }, rail.currency, localRate);
  checkLimits(rail, usd, local);
  // The hosted checkout needs the buyer (contract 4.4), on a session and on POST /payments alike.
  const extra: Requirement[] = opts.requireBuyer || input.hostedCheckout ? ["userName", "userEmail", "documentId"] : [];
  if (!opts.payerUnknown) checkRailRequirements(rail, input, extra);
  // Checked before any provider is called; the deadline itself counts from the row's creation.
  const expiryFrom = (at: Date) => opts.expiresAt ?? expiresAtFor(rail, at, input.expiresInMinutes);
  expiryFrom(new Date());
  // The installment count against the shop's plan (400 installments_unavailable before anything is created).
  const installments = await chooseForPayment(shopId, rail, local, usd, input.installments);
  return { usd, currency, inputMinor, local, localRate, expiryFrom, fees: priceCharge(usd, auth.merchant.tier, rail), installments };
}

export type Priced = Awaited<ReturnType<typeof pricePayment>>;

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
