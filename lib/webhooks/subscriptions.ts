// Webhook subscriptions: create, list, get, update, delete, rotate the secret. Always scoped by
// merchant and environment; another merchant's id is the same 404 as an unknown one. A
// subscription belongs to the shop of the key that created it (decisions.md, Shops): that shop's
// keys alone see and change it, and it receives that shop's events (and the merchant's own). One
// made with a merchant-wide credential (or the dashboard) covers every shop, unless `shopId` names one.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { singleton } from "@/lib/platform/singleton";
import { rememberBounded } from "@/lib/platform/bounded";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { open, seal } from "@/lib/platform/crypto/secret-box";
import { clampPage, envelope, listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { assertDeliverableUrl } from "@/lib/webhooks/url-policy";
import { inBoundTransaction } from "@/lib/platform/idempotency/bind";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { WebhookSubscription } from "@/lib/generated/prisma/client";
import { merchantScope, ownedScope } from "@/lib/platform/scope";

export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

// Standard Webhooks' form: `whsec_` + base64 of 24 random bytes (its libraries decode it as base64).
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
export const inboxUrl = (id: string) => `${config().APP_URL}/api/inbox/${id}`;

export function presentSubscription(s: WebhookSubscription) {
  return { id: s.id, url: s.url, managed: s.managed, events: s.events, status: s.status, shopId: s.shopId, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString() };
}

// Secrets opened, by their sealed text: every delivery signs with its subscription's secret, and
// opening it (AES-GCM with a fresh decipher) was 5 % of a delivery's CPU at 1,700 a second. The
// sealed text is the key, so a rotated secret (sealed anew) is opened anew; at rest they stay
// sealed. Bounded: past OPENED_KEPT the oldest opened go first.
const OPENED_KEPT = 10_000;
const opened = singleton("webhook-secrets-opened", () => new Map<string, string>());

function openKept(sealed: string): string {
  let plain = opened.get(sealed);
  if (plain === undefined) rememberBounded(opened, sealed, (plain = open(sealed)), OPENED_KEPT);
  return plain;
}

/** The secrets deliveries are signed with now: current, and previous during the grace window. */
export function signingSecrets(s: Pick<WebhookSubscription, "secretEncrypted" | "previousSecretEncrypted" | "previousSecretExpiresAt">, now = new Date()) {
  const previous = s.previousSecretEncrypted && s.previousSecretExpiresAt && s.previousSecretExpiresAt > now ? openKept(s.previousSecretEncrypted) : null;
  return { current: openKept(s.secretEncrypted), previous };
}

type Owner = Pick<AuthContext, "merchant" | "shop" | "environment">;

/** What a credential may see: a shop key its shop's subscriptions only; merchant-wide, all of them. */
export const subscriptionScope = (auth: Owner) => (ownedScope(auth));

export async function findSubscription(auth: AuthContext, id: string): Promise<WebhookSubscription> {
  const s = await db().webhookSubscription.findFirst({ where: { id, ...subscriptionScope(auth), deletedAt: null } });
  if (!s) throw new AppError("webhook_not_found", `No webhook subscription ${id}.`, { param: "id" });
  return s;
}

/** The shop a new subscription belongs to: the key's; for a merchant-wide credential, `shopId` or none (all shops). */
async function ownerShop(auth: Owner, shopId: string | undefined): Promise<string | null> {
  if (auth.shop) {
    if (shopId && shopId !== auth.shop.id) throw new AppError("forbidden", "`shopId` is not the shop of this credential.", { param: "shopId" });
    return auth.shop.id;
  }
  if (!shopId) return null;
  const shop = await db().shop.findFirst({ where: { id: shopId, merchantId: auth.merchant.id }, select: { id: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${shopId} for this merchant.`, { param: "shopId" });
  return shop.id;
}

export async function createSubscription(auth: AuthContext, input: { url?: string; events: string[]; shopId?: string }) {
  const shopId = await ownerShop(auth, input.shopId);
  if (input.url) await assertDeliverableUrl(input.url, auth.environment);
  const id = newId("webhook");
  const secret = newSecret();
  const s = await inBoundTransaction((tx) => tx.webhookSubscription.create({
    data: { id, ...merchantScope(auth), shopId, url: input.url ?? inboxUrl(id), managed: !input.url, events: [...new Set(input.events)], secretEncrypted: seal(secret) },
  }), () => ({ resource: "webhook", id }));
  await recordSecurityEvent({ merchantId: auth.merchant.id, type: "webhook_secret.revealed", ...actorOf(auth), details: { webhookId: id, environment: auth.environment } });
  return { ...presentSubscription(s), secret };
}

export async function listSubscriptions(auth: AuthContext, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string }) {
  const where = { ...subscriptionScope(auth), deletedAt: null };
  const { rows, meta } = await pageModel<WebhookSubscription>(readPage(query), { model: db().webhookSubscription, name: "webhookSubscription", where, scope: where });
  return listEnvelope(rows.map(presentSubscription), meta);
}

export async function updateSubscription(auth: AuthContext, id: string, input: { url?: string; events?: string[]; status?: "enabled" | "disabled" }) {
  const s = await findSubscription(auth, id);
  if (input.url) await assertDeliverableUrl(input.url, auth.environment);
  const updated = await db().webhookSubscription.update({
    where: { id: s.id },
    data: {
      ...(input.url ? { url: input.url, managed: false } : {}),
      ...(input.events ? { events: [...new Set(input.events)] } : {}),
      ...(input.status ? { status: input.status, ...(input.status === "enabled" ? { failingSince: null } : {}) } : {}),
    },
  });
  return presentSubscription(updated);
}

export async function deleteSubscription(auth: AuthContext, id: string) {
  const s = await findSubscription(auth, id);
  await db().webhookSubscription.update({ where: { id: s.id }, data: { deletedAt: new Date(), status: "disabled" } });
  return { id: s.id, deleted: true as const };
}

export async function rotateSecret(auth: AuthContext, id: string) {
  const s = await findSubscription(auth, id);
  const secret = newSecret();
  const updated = await db().webhookSubscription.update({
    where: { id: s.id },
    data: { secretEncrypted: seal(secret), previousSecretEncrypted: s.secretEncrypted, previousSecretExpiresAt: new Date(Date.now() + ROTATION_GRACE_MS) },
  });
  await recordSecurityEvent({ merchantId: auth.merchant.id, type: "webhook_secret.rotated", ...actorOf(auth), details: { webhookId: s.id, environment: auth.environment } });
  return { ...presentSubscription(updated), secret };
}
