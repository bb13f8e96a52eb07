import { toMajor } from "@/lib/money/amount";
import { config } from "@/lib/platform/config";
import { isoDayOf } from "@/lib/mandates/dates";
import type { Mandate, MandateCharge } from "@/lib/generated/prisma/client";

/** The payer's authorization page (app/pay/mandate/[token], a buyer page). */
export function authorizationUrl(token: string): string {
  return `${config().APP_URL}/pay/mandate/${token}`;
}

export function presentMandate(m: Mandate) {
  return {
    id: m.id,
    shopId: m.shopId,
    status: m.status,
    period: m.period,
    amount: m.amount === null ? null : toMajor(m.amount, m.currency),
    maxAmount: m.maxAmount === null ? null : toMajor(m.maxAmount, m.currency),
    currency: "BRL" as const,
    startDate: isoDayOf(m.startDate),
    endDate: m.endDate ? isoDayOf(m.endDate) : null,
    customer: { name: m.customerName, email: m.customerEmail, documentId: m.customerDocument },
    description: m.description,
    authorizationUrl: authorizationUrl(m.token),
    cancelledBy: m.cancelledBy,
    authorizedAt: m.authorizedAt?.toISOString() ?? null,
    endedAt: m.endedAt?.toISOString() ?? null,
    createdAt: m.createdAt.toISOString(),
  };
}

export function presentCharge(c: MandateCharge) {
  return {
    id: c.id,
    mandateId: c.mandateId,
    dueDate: isoDayOf(c.dueDate),
    amount: toMajor(c.amount, "BRL"),
    currency: "BRL" as const,
    status: c.status,
    attempts: c.attempts,
    paymentId: c.paymentId,
    paymentIds: c.paymentIds,
    createdAt: c.createdAt.toISOString(),
  };
}
