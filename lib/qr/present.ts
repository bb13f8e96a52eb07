import { toMajor } from "@/lib/money/amount";
import { config } from "@/lib/platform/config";
import type { QrEstablishment, QrOrder } from "@/lib/generated/prisma/client";

export function presentEstablishment(e: QrEstablishment) {
  return { id: e.id, shopId: e.shopId, name: e.name, city: e.city, mcc: e.mcc, status: e.status, createdAt: e.createdAt.toISOString() };
}

export function qrPageUrl(token: string): string {
  return `${config().APP_URL}/qr/${token}`;
}

export function presentQrOrder(o: QrOrder) {
  return {
    id: o.id,
    token: o.token,
    status: o.status,
    amount: toMajor(o.amount, o.currency),
    currency: o.currency,
    amountLocal: toMajor(o.amountLocal, o.currencyLocal),
    currencyLocal: o.currencyLocal,
    rail: "pix" as const,
    qrPayload: o.qrPayload,
    qrImageUrl: `${qrPageUrl(o.token)}/qr.svg`,
    pageUrl: qrPageUrl(o.token),
    merchantOrderId: o.merchantOrderId,
    description: o.description,
    expiresAt: o.expiresAt.toISOString(),
    transactionId: o.transactionId,
    createdAt: o.createdAt.toISOString(),
    paidAt: o.paidAt?.toISOString() ?? null,
  };
}
