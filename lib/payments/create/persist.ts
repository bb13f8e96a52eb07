// POST /payments, stages 5-6 (lib/payments/create-payment.ts): persist and bind, then present.
// The row and the request's idempotency record commit together (bindIdempotency, or the bind
// folded into the insert); production commits its row before any provider is called (the
// header of create-payment.ts), then writes the route.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { JOB_SIGNALS, wakeJobs } from "@/lib/platform/outbox/wake";
import { bindIdempotency } from "@/lib/platform/idempotency/bind";
import { isCascadeDecline, type Attempt, type CascadeResult } from "@/lib/payments/cascade";
import { failPayment } from "@/lib/payments/transitions";
import { behaviourActions } from "@/lib/payments/sandbox-behaviour";
import { presentCreated, type PresentableTransaction } from "@/lib/payments/present";
import { sandboxOutcomeRows } from "@/lib/payments/sandbox-schedule";
import { insertTransaction } from "@/lib/payments/store";
import { unknownAttempt, type Routed } from "@/lib/payments/create/route";
import { decisionRows } from "@/lib/routing/propensity";
import { writeRoute } from "@/lib/payments/create/write-route";
import type { Rail } from "@/lib/rails/rails";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { CreatePaymentInput } from "@/lib/payments/schema";
import type { CreatePaymentOptions } from "@/lib/payments/create/options";
import type { Priced } from "@/lib/payments/create/price";
import { storedQuote } from "@/lib/installments/stored";

/** The pending row as it is inserted. */
export function paymentRow(auth: AuthContext, id: string, shopId: string, rail: Rail, input: CreatePaymentInput, priced: Priced, cascade: CascadeResult, userIp: string | null, opts: CreatePaymentOptions, now: Date): PresentableTransaction {
  return {
    id,
    merchantId: auth.merchant.id,
    shopId,
    environment: auth.environment,
    status: "pending",
    amountUsd: priced.usd,
    amountLocal: priced.local,
    currencyLocal: rail.currency,
    inputCurrency: priced.currency !== "USD" ? priced.currency : null,
    inputAmount: priced.currency !== "USD" ? priced.inputMinor : null,
    paymentMethodId: rail.paymentMethodId,
    method: rail.method,
    railName: rail.name,
    country: rail.countryIso3,
    feePlatform: priced.fees.platformPercent + priced.fees.flat,
    feeProvider: priced.fees.provider,
    feeNetwork: priced.fees.network,
    reserveAmount: priced.fees.reserve,
    settlementDelay: rail.settlementDelay,
    provider: cascade.provider,
    providerRef: cascade.providerRef,
    paymentFormUrl: cascade.paymentFormUrl,
    instructions: cascade.instructions as Prisma.JsonValue,
    hostedCheckout: input.hostedCheckout ?? false,
    returnUrl: input.returnUrl ?? null,
    merchantOrderId: input.merchantOrderId ?? null,
    qrOrderId: opts.qrOrderId ?? null,
    mandateId: opts.mandateId ?? null,
    tag1: input.tag1 ?? null,
    tag2: input.tag2 ?? null,
    tag3: input.tag3 ?? null,
    userName: input.userName ?? null,
    userEmail: input.userEmail ?? null,
    userPhone: input.userPhone ?? null,
    userIp,
    expiresAt: priced.expiryFrom(now),
    createdAt: now,
    attempts: cascade.attempts as unknown as Prisma.JsonValue,
    settlementStatus: "pending",
    settleAt: null,
    refundedLocal: 0n,
    pendingDebited: 0n,
    reserveReleaseAt: null,
    reserveReleasedAt: null,
    completedAt: null,
    installments: priced.installments.quote ? storedQuote(priced.installments.quote) : null,
    feeFinancing: priced.installments.feeFinancingUsd,
  };

}

/** Stages 5-6, persist and bind, then present: the answer POST /payments gives. */
export async function persistPayment(auth: AuthContext, row: PresentableTransaction, localRate: string, routed: Routed, opts: CreatePaymentOptions) {
  if (auth.environment === "production") return routeCommitted(row, localRate, routed, opts);
  // One statement on the hot path; with a scheduled sandbox outcome, both rows commit together.
  const scheduled = auth.environment === "sandbox" ? [...(opts.simulate ? sandboxOutcomeRows(row.id, opts.simulate, row.createdAt) : []), ...behaviourActions(row.id, opts.behaviour, row.createdAt)] : [];
  if (scheduled.length || opts.inTransaction) {
    await db().$transaction(async (tx) => {
      await insertTransaction(row, localRate, tx);
      await bindIdempotency(tx, { resource: "payment", id: row.id });
      if (scheduled.length) await tx.scheduledAction.createMany({ data: scheduled });
      await opts.inTransaction?.(tx);
    });
    for (const a of scheduled) wakeJobs(JOB_SIGNALS.scheduledActionCreated, { id: a.id, dueAt: a.dueAt.toISOString() });
  } else if (routed.keptAfter) {
    await insertTransaction(row, localRate);
  } else {
    // The insert is this request's one write: its answer is stored with it (one statement in all).
    const answer = presentCreated(row);
    await insertTransaction(row, localRate, undefined, answer);
    return answer;
  }
  if (routed.keptAfter) throw withTransactionId(routed.keptAfter, row.id);
  return presentCreated(row);
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
async function routeCommitted(row: PresentableTransaction, localRate: string, { route, log }: Routed, opts: CreatePaymentOptions) {
  await insertTransaction(row, localRate);
  let cascade: CascadeResult;
  // The routing decision's rows (routing_decisions: each attempt's propensity and outcome) are
  // written with the attempts: on the paths below in their transaction, one multi-row INSERT
  // more in it; on the common one (the providers answered) in the same statement.
  const decisions = (client: Pick<Prisma.TransactionClient, "routingDecision"> = db()) => {
    const data = decisionRows(row, row.id, log);
    return data.length ? [client.routingDecision.createMany({ data })] : [];
  };
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
          await Promise.all(decisions(tx));
        },
      });
      throw withTransactionId(err, row.id, "failed");
    }
    const unknown = err instanceof AppError ? unknownAttempt(err) : undefined;
    if (!unknown) {
      // Every provider answered clearly: none holds a charge, so nothing of this request remains
      // but the decision's record (what each provider answered is evidence all the same).
      await db().$transaction([db().transaction.deleteMany({ where: { id: row.id, status: "pending" } }), ...decisions()]);
      throw err;
    }
    await db().$transaction([db().transaction.updateMany({ where: { id: row.id }, data: { provider: unknown.provider, attempts: attempts as unknown as Prisma.InputJsonValue, declineCode: (err as AppError).declineCode ?? null } }), ...decisions()]);
    throw withTransactionId(err as AppError, row.id);
  }
  const routed = { ...row, provider: cascade.provider, providerRef: cascade.providerRef, paymentFormUrl: cascade.paymentFormUrl, instructions: cascade.instructions as Prisma.JsonValue, attempts: cascade.attempts as unknown as Prisma.JsonValue };
  // The route and the decision's rows in one statement (write-route.ts); in a transaction only
  // when the caller writes more with them.
  const write = { provider: routed.provider, providerRef: routed.providerRef, paymentFormUrl: routed.paymentFormUrl, instructions: cascade.instructions, attempts: cascade.attempts, routingVersion: cascade.routingVersion ?? null };
  const decided = decisionRows(row, row.id, log);
  const inTransaction = opts.inTransaction;
  if (inTransaction) {
    await db().$transaction(async (tx) => {
      await writeRoute(row.id, write, decided, tx);
      await inTransaction(tx);
    });
  } else await writeRoute(row.id, write, decided);
  return presentCreated(routed);
}
