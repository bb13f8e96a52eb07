// POST /payments, stage 4 (lib/payments/create-payment.ts): route and cascade. The request the
// cascade (lib/payments/cascade.ts) sends each provider in turn; the sandbox runs its local
// cascade here, production only after its row is committed (persist.ts).
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { routableProviders } from "@/lib/catalog/list-payment-methods";
import { runCascade, type Attempt, type CascadeResult } from "@/lib/payments/cascade";
import { documentTypeOf } from "@/lib/routing/select";
import { cobrRef } from "@/lib/providers/http-psp/pix-automatico";
import type { Rail } from "@/lib/rails/rails";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { CreatePaymentOptions } from "@/lib/payments/create/options";
import type { Priced } from "@/lib/payments/create/price";
import { newDecisionLog, type DecisionLog } from "@/lib/routing/propensity";

export type Routed = {
  /** Runs the cascade for this payment (production: after the insert). */
  route: () => Promise<CascadeResult>;
  /** What the row names before or without a route: the cascade's answer, or the provider about to be asked first. */
  cascade: CascadeResult;
  /** A scripted sandbox cascade that ended unknown: the row is kept, as production keeps it, and this is answered. */
  keptAfter: AppError | null;
  /** The routing decision with each attempt's propensity (production), written with the attempts (persist.ts). */
  log: DecisionLog;
};

/** Stage 4, route and cascade: in the sandbox the cascade runs now; in production it is only prepared. */
export async function routePayment(auth: AuthContext, id: string, shopId: string, rail: Rail, enabled: boolean, input: CreatePaymentInput, priced: Priced, userIp: string | null, opts: CreatePaymentOptions): Promise<Routed> {
  const log = newDecisionLog();
  const route = () =>
    runCascade(
      auth.environment,
      {
        transactionId: id,
        rail,
        amountLocalMinor: priced.local,
        currency: rail.currency,
        buyer: { name: input.userName, email: input.userEmail, phone: input.userPhone, documentId: input.documentId, ip: userIp ?? undefined },
        notifyUrl: `${config().APP_URL}/api/v1/providers/{provider}/notifications`,
        ...(priced.installments.quote ? { installments: { count: priced.installments.quote.count, totalMinor: priced.installments.quote.total, paidBy: priced.installments.quote.paidBy } } : {}),
        ...(opts.mandateCharge ? { mandate: opts.mandateCharge } : {}),
      },
      {
        enabledForShop: enabled,
        behaviour: opts.behaviour,
        shopId,
        merchantId: auth.merchant.id,
        facts: { paymentMethodId: rail.paymentMethodId, amountUsdMinor: priced.usd, country: rail.countryIso3, currency: priced.currency, documentType: documentTypeOf(input.documentId, rail.countryIso3) },
        // A recurring PIX charge has one possible PSP (its recurrence's): no routing decision to learn from.
        ...(opts.mandateCharge ? {} : { log }),
      },
    );
  // Until the cascade has run, the row names the provider about to be asked first.
  // A recurring PIX charge's reference is ours before the call (its CobR txid and attempt), so
  // the row names it even when the PSP's answer is lost (lib/providers/http-psp/pix-automatico.ts).
  const m = opts.mandateCharge;
  const unrouted: CascadeResult = m
    ? { provider: m.provider, providerRef: cobrRef(m.txid, m.attempt), paymentFormUrl: null as unknown as string, instructions: null, attempts: [] }
    : { provider: routableProviders(rail, auth.environment, priced.installments.quote?.paidBy ?? null)[0] ?? "none", providerRef: null as unknown as string, paymentFormUrl: null as unknown as string, instructions: null, attempts: [] };
  if (auth.environment === "production") return { route, cascade: unrouted, keptAfter: null, log };
  try {
    return { route, cascade: await route(), keptAfter: null, log };
  } catch (err) {
    const unknown = err instanceof AppError && opts.behaviour ? unknownAttempt(err) : undefined;
    if (!unknown) throw err;
    return { route, cascade: { ...unrouted, provider: unknown.provider, attempts: (err as AppError & { details: { attempts: Attempt[] } }).details.attempts }, keptAfter: err as AppError, log };
  }
}

/** The last attempt whose outcome is unknown (timeout, 5xx, unreadable), if the cascade ended with one. */
export function unknownAttempt(err: AppError): Attempt | undefined {
  const attempts = (err.details as { attempts?: Attempt[] } | undefined)?.attempts ?? [];
  return [...attempts].reverse().find((a) => a.outcome === "unavailable");
}
