"use server";
// The counter charge (QR orders of the merchant's first shop, a registered QR establishment).
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { createQrOrderBody } from "@/lib/qr/schema";
import { createQrOrder, replayQrOrder } from "@/lib/qr/create-order";
import { cancelQrOrder, simulateQrOrder } from "@/lib/qr/orders";
import { amountField } from "@/server/actions/form-fields";

/** A counter charge: a QR order of the merchant's first shop (it must be a QR establishment). */
export async function createQrOrderAction(input: { amount?: string; merchantOrderId?: string; description?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const body = parseWith(createQrOrderBody, { amount: amountField(input.amount), merchantOrderId: input.merchantOrderId?.trim() || undefined, ...(input.description?.trim() ? { description: input.description.trim() } : {}) }, "body");
    const ctx = await withShop(d);
    return onceForForm(d, "qr-order", formKey, body, () => createQrOrder(ctx, body), (ref) => replayQrOrder(ctx, ref.id));
  });
}

export async function cancelQrOrderAction(orderId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const ctx = await withShop(d);
    return onceForForm(d, "qr-cancel", formKey, { orderId }, () => cancelQrOrder(ctx, orderId));
  });
}

export async function simulateQrOrderAction(orderId: string, action: "paid" | "expired", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayment");
    if (action !== "paid" && action !== "expired") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    const ctx = await withShop(d);
    return onceForForm(d, "qr-simulate", formKey, { orderId, action }, () => simulateQrOrder(ctx, orderId, action));
  });
}
