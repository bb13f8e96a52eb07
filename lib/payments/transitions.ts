// State changes of a pay-in (API reference 3.1 and decisions.md), each an operation of the money
// kernel (lib/ledger/transition.ts): the row is locked with the merchant's ledger, the status is
// checked against the statuses the operation accepts, and the status, ledger postings (recipes)
// and outbox events are written together. Applying the same transition twice changes nothing the
// second time (it returns `changed: false`).
import type { Tx } from "@/lib/platform/db";
import type { EventType } from "@/lib/platform/outbox/emit";
import { paymentCompleted } from "@/lib/ledger/recipes";
import { lockRow, transition, type Emit, type Operation } from "@/lib/ledger/transition";
import { presentTransaction } from "@/lib/payments/present";
import { addDays, RESERVE_HOLD_DAYS, settlementDays } from "@/lib/pricing/fees";
import { AppError } from "@/lib/platform/errors";
import { mirrorToQrOrder } from "@/lib/payments/qr-mirror";
import { finalInstallments } from "@/lib/installments/final";
import { mirrorToMandateCharge } from "@/lib/payments/mandate-mirror";
import { Prisma, type Transaction } from "@/lib/generated/prisma/client";

export type TransitionResult = { transaction: Transaction; changed: boolean; eventsFired: EventType[] };

/** Runs first in a transition's own transaction (a provider notice records its id there, once). */
export type InTransaction = { inTransaction?: (tx: Tx) => Promise<void> };

export async function lockTransaction(tx: Tx, id: string): Promise<Transaction | null> {
  return lockRow(tx, "transactions", id, () => tx.transaction.findUnique({ where: { id } }));
}

export const paymentEvents = (t: Transaction, types: EventType[]): Emit[] => types.map((type) => ({ type, object: presentTransaction(t) }));
export const notFound = () => new AppError("transaction_not_found", "No such transaction.");
export const scopeOf = (t: Transaction) => ({ merchantId: t.merchantId, environment: t.environment, shopId: t.shopId });

/** The skeleton every pay-in transition shares: lock transaction `id`, accept `from`, then `apply`. */
export function paymentOp<T>(id: string, name: string, from: Transaction["status"][], opts: InTransaction, apply: Operation<Transaction, T>["apply"]): Operation<Transaction, T> {
  return { name, before: opts.inTransaction, load: (tx) => lockTransaction(tx, id), missing: notFound, ledger: scopeOf, status: (t) => t.status, from, apply };
}

/** The shape every pay-in transition answers with. */
export async function payment(op: Parameters<typeof transition<Transaction, { transaction: Transaction; eventsFired: EventType[] }>>[0]): Promise<TransitionResult> {
  const r = await transition(op);
  return r.changed ? { transaction: r.result.transaction, changed: true, eventsFired: r.result.eventsFired } : { transaction: r.row!, changed: false, eventsFired: [] };
}

export type CompleteOptions = {
  alsoCaptured?: boolean;
  at?: Date;
  /**
   * The provider said paid (notice or status lookup): money the buyer paid, so a payment we had
   * already failed or expired completes too (decisions.md "Late payments"): the same recipe,
   * `lateCompletion` on the row and on the event, whose `previousStatus` says what it was.
   */
  late?: boolean;
  /** The charge that was paid: a cascade attempt we had left behind becomes the route (refunds and chargebacks go to it). */
  paidBy?: { provider: string; providerRef: string };
  /**
   * The installments the buyer chose at the provider (1: at once), when the provider reports it
   * (ChargeReadBack.installmentsCount): the row's plan and financing fee become that count's
   * (lib/installments/final.ts) before the completion's postings are computed from the row.
   */
  installmentsCount?: number;
} & InTransaction;

/** pending (or, late, failed | expired) -> completed: the net to `pending`, the reserve to `reserve`, fees to their accounts. */
export async function completePayment(id: string, opts: CompleteOptions = {}): Promise<TransitionResult> {
  return payment(paymentOp(id, "completePayment", opts.late ? ["pending", "failed", "expired"] : ["pending"], opts, async (tx, t) => {
    const at = opts.at ?? new Date();
    const late = t.status !== "pending";
    const moved = opts.paidBy && (opts.paidBy.provider !== t.provider || opts.paidBy.providerRef !== t.providerRef) ? opts.paidBy : null;
    // In this transaction, under the row's lock: the plan the ledger books is the plan paid on.
    const plan = await finalInstallments(tx, t, opts.installmentsCount);
    const paid = plan ? { ...t, installments: plan.installments, feeFinancing: plan.feeFinancing } : t;
    const updated = await tx.transaction.update({
      where: { id },
      data: {
        status: "completed",
        completedAt: at,
        settleAt: addDays(at, settlementDays(t.settlementDelay)),
        reserveReleaseAt: t.reserveAmount > 0n ? addDays(at, RESERVE_HOLD_DAYS) : null,
        nextCheckAt: null,
        ...(late ? { lateCompletion: true } : {}),
        ...(moved ? { provider: moved.provider, providerRef: moved.providerRef } : {}),
        ...(plan ? { installments: plan.installments ?? Prisma.DbNull, feeFinancing: plan.feeFinancing } : {}),
      },
    });
    await mirrorToQrOrder(tx, id, "paid", at);
    await mirrorToMandateCharge(tx, t, "paid", at);
    const eventsFired: EventType[] = opts.alsoCaptured ? ["payment.completed", "payment.captured"] : ["payment.completed"];
    const events = paymentEvents(updated, eventsFired).map((e) => (late ? { ...e, data: { lateCompletion: true } } : e));
    return { result: { transaction: updated, eventsFired }, postings: [paymentCompleted(paid)], events };
  }));
}

/** pending -> failed | expired. */
export async function failPayment(id: string, to: "failed" | "expired", opts: InTransaction = {}): Promise<TransitionResult> {
  return payment(paymentOp(id, "failPayment", ["pending"], opts, async (tx, t) => {
    const updated = await tx.transaction.update({ where: { id }, data: { status: to, nextCheckAt: null } });
    await mirrorToQrOrder(tx, id, "expired", new Date());
    await mirrorToMandateCharge(tx, t, "failed", new Date());
    return { result: { transaction: updated, eventsFired: ["payment.failed"] }, events: paymentEvents(updated, ["payment.failed"]) };
  }));
}

