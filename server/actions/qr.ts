"use server";
// The counter charge (QR orders of the merchant's first shop, a registered QR establishment).
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { createQrOrderBody } from "@/lib/qr/schema";
import { createQrOrder, replayQrOrder } from "@/lib/qr/create-order";
import { cancelQrOrder, simulateQrOrder } from "@/lib/qr/orders";
import { amountField } from "@/server/actions/form-fields";

/** A counter charge: a QR order of the merchant's first shop (it must be a QR establishment). */
export const createQrOrderAction = dashboardAction(
  "collect",
  {
    args: (form: { amount?: string; merchantOrderId?: string; description?: string }, formKey?: string) => ({
      formKey,
      input: { amount: amountField(form.amount), merchantOrderId: form.merchantOrderId?.trim() || undefined, ...(form.description?.trim() ? { description: form.description.trim() } : {}) },
    }),
    input: createQrOrderBody,
    shop: true,
    once: "qr-order",
    replay: ({ ctx }, ref) => replayQrOrder(ctx, ref.id),
  },
  ({ ctx, input }) => createQrOrder(ctx, input),
);

export const cancelQrOrderAction = dashboardAction(
  "collect",
  { args: (orderId: string, formKey?: string) => ({ orderId, formKey }), shop: true, once: "qr-cancel" },
  ({ ctx, orderId }) => cancelQrOrder(ctx, orderId),
);

export const simulateQrOrderAction = dashboardAction(
  "simulatePayment",
  { args: (orderId: string, action: "paid" | "expired", formKey?: string) => ({ orderId, formKey, input: action }), input: oneOf("action", ["paid", "expired"], "Unknown simulate action."), shop: true, once: "qr-simulate" },
  ({ ctx, orderId, input }) => simulateQrOrder(ctx, orderId, input),
);
