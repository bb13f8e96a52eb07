"use server";
// Webhook subscriptions: create (the signing secret shown once), update, delete, rotate, replay.
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { createWebhookBody, updateWebhookBody } from "@/lib/webhooks/schema";
import { createSubscription, deleteSubscription, rotateSecret, updateSubscription } from "@/lib/webhooks/subscriptions";
import { replayDelivery } from "@/lib/webhooks/deliveries";

export async function createWebhookAction(input: { url?: string; events: string[] }) {
  return runAction(async () => {
    // Creating shows the signing secret once: the stricter permission, as POST /webhooks names.
    const d = await dashboardOrThrow("seeSecrets");
    const body = parseWith(createWebhookBody, { ...(input.url?.trim() ? { url: input.url.trim() } : {}), events: input.events }, "body");
    return createSubscription(d.ctx, body);
  });
}

export async function updateWebhookAction(id: string, input: { url?: string; events?: string[]; status?: "enabled" | "disabled" }) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageWebhooks");
    const body = parseWith(updateWebhookBody, { ...input, ...(input.url !== undefined ? { url: input.url.trim() || undefined } : {}) }, "body");
    return updateSubscription(d.ctx, id, body);
  });
}

export async function deleteWebhookAction(id: string) {
  return runAction(async () => deleteSubscription((await dashboardOrThrow("manageWebhooks")).ctx, id));
}

export async function rotateWebhookSecretAction(id: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("seeSecrets");
    return rotateSecret(d.ctx, id);
  });
}

export async function replayDeliveryAction(id: string, deliveryId: string) {
  return runAction(async () => replayDelivery((await dashboardOrThrow("manageWebhooks")).ctx, id, deliveryId));
}
