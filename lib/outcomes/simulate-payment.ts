// POST /payments/{id}/simulate (sandbox): drives a payment through the transitions of 3.1,
// the same functions provider notices use.
import { db } from "@/lib/platform/db";
import { bindOnNextTransition } from "@/lib/platform/idempotency/bind";
import { AppError } from "@/lib/platform/errors";
import { completePayment, failPayment, type TransitionResult } from "@/lib/payments/transitions";
import { openChargeback, refundInFull } from "@/lib/claims/transitions";
import { openMed, MED_WINDOW_DAYS } from "@/lib/claims/pix-med";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { Environment } from "@/lib/generated/prisma/enums";
import { merchantScope } from "@/lib/platform/scope";

export type SimulateAction = "paid" | "failed" | "expired" | "refunded" | "chargeback" | "open_med";

const NEEDS: Record<SimulateAction, "pending" | "completed"> = { paid: "pending", failed: "pending", expired: "pending", refunded: "completed", chargeback: "completed", open_med: "completed" };

/** The sandbox's words for a MED claim the payment cannot take (decisions.md "PIX disputes (MED)"). */
const MED_REFUSALS = {
  not_pix: "A MED claim is opened on PIX payments only.",
  too_late: `A MED claim is taken up to ${MED_WINDOW_DAYS} days after the payment; this one is older.`,
  nothing_left: "Nothing of this payment is left to claim: it is refunded or held by other claims.",
  already_open: "This payment already has an open MED claim.",
} as const;

/** Applies an action to a sandbox transaction; `strict` refuses actions its status does not allow. */
export async function applySimulation(id: string, action: SimulateAction, strict: boolean): Promise<TransitionResult> {
  const t = await db().transaction.findUnique({ where: { id }, select: { status: true, environment: true } });
  if (!t || t.environment !== "sandbox") throw new AppError("transaction_not_found", `No transaction ${id}.`);
  if (strict && t.status !== NEEDS[action]) {
    throw new AppError("invalid_request", `Cannot simulate ${action} on a ${t.status} payment; ${action} applies to ${NEEDS[action]} payments.`, { param: "action", details: { status: t.status } });
  }
  switch (action) {
    case "paid":
      return completePayment(id, { alsoCaptured: true });
    case "failed":
      return failPayment(id, "failed");
    case "expired":
      return failPayment(id, "expired");
    case "refunded":
      return refundInFull(id);
    case "chargeback":
      return openChargeback(id);
    case "open_med": {
      const r = await openMed(id);
      if (r.refusal && strict) throw new AppError("invalid_request", MED_REFUSALS[r.refusal], { param: "action", details: { reason: r.refusal } });
      const transaction = (await db().transaction.findUnique({ where: { id } }))!;
      return r.opened ? { transaction, changed: true, eventsFired: ["claim.opened"] } : { transaction, changed: false, eventsFired: [] };
    }
  }
}

export async function simulatePayment(auth: AuthContext, id: string, action: SimulateAction) {
  await assertOwned(auth.merchant.id, auth.environment, auth.shop?.id ?? null, id);
  bindOnNextTransition({ resource: "payment", id });
  const r = await applySimulation(id, action, true);
  // Checked again after the row lock: a concurrent call may have moved the payment first.
  if (!r.changed) {
    throw new AppError("invalid_request", `Cannot simulate ${action}: the payment is ${r.transaction.status} (or already has an open chargeback).`, { param: "action", details: { status: r.transaction.status } });
  }
  return { id, status: r.transaction.status, eventsFired: r.eventsFired };
}

/** The events each action fires (completePayment, failPayment, refundInFull, openChargeback). */
const FIRES: Record<SimulateAction, string[]> = { paid: ["payment.completed", "payment.captured"], failed: ["payment.failed"], expired: ["payment.failed"], refunded: ["payment.refunded"], chargeback: ["chargeback.created", "claim.opened"], open_med: ["claim.opened"] };

/** A simulate answer lost after its commit (idempotent replay): the payment as it is now. */
export async function replaySimulation(auth: AuthContext, id: string, action: SimulateAction) {
  const t = await db().transaction.findFirst({ where: { id, ...merchantScope(auth) }, select: { status: true } });
  if (!t) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
  return { id, status: t.status, eventsFired: FIRES[action] };
}

export async function assertOwned(merchantId: string, environment: Environment, shopId: string | null, id: string) {
  const t = await db().transaction.findFirst({ where: { id, merchantId, environment, ...(shopId ? { shopId } : {}) }, select: { id: true } });
  if (!t) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
}
