"use server";
// Webhook subscriptions: create (the signing secret shown once), update, delete, rotate, replay.
import { dashboardAction } from "@/server/dashboard-action";
import { createWebhookBody, updateWebhookBody } from "@/lib/webhooks/schema";
import { createSubscription, deleteSubscription, rotateSecret, updateSubscription } from "@/lib/webhooks/subscriptions";
import { replayDelivery } from "@/lib/webhooks/deliveries";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";

type WebhookForm = { url?: string; events?: string[]; status?: "enabled" | "disabled" };

// Creating shows the signing secret once: the stricter permission, as POST /webhooks names.
export const createWebhookAction = dashboardAction(
  "seeSecrets",
  { args: (form: { url?: string; events: string[] }) => ({ input: { ...(form.url?.trim() ? { url: form.url.trim() } : {}), events: form.events } }), input: createWebhookBody },
  ({ ctx, input }) => createSubscription(ctx, input),
);

export const updateWebhookAction = dashboardAction(
  "manageWebhooks",
  { args: (id: string, form: WebhookForm) => ({ id, input: { ...form, ...(form.url !== undefined ? { url: form.url.trim() || undefined } : {}) } }), input: updateWebhookBody },
  ({ ctx, id, input }) => updateSubscription(ctx, id, input),
);

export const deleteWebhookAction = dashboardAction("manageWebhooks", { args: (id: string) => ({ id }) }, ({ ctx, id }) => deleteSubscription(ctx, id));

export const rotateWebhookSecretAction = dashboardAction("seeSecrets", { args: (id: string) => ({ id }) }, ({ ctx, id }) => rotateSecret(ctx, id));

export const replayDeliveryAction = dashboardAction("manageWebhooks", { args: (id: string, deliveryId: string) => ({ id, deliveryId }) }, ({ ctx, id, deliveryId }) => replayDelivery(ctx, id, deliveryId));

/** Sandbox: a signed `webhook.test` event to this subscription (POST /webhooks/{id}/test's use case). */
export const sendTestEventAction = dashboardAction("sendTestEvent", { args: (id: string, formKey?: string) => ({ id, formKey }), once: "webhook-test-event" }, ({ ctx, id }) => sendTestEvent(ctx, id));
