// What a credential resolves to: the key pair with its merchant and shop. Cached briefly per
// process (key lookups are on every request); changes to keys or statuses notify every server
// to drop its cache (lib/cache/invalidation.ts), and a 5 s TTL bounds staleness.
import { db } from "@/lib/db";
import { singleton } from "@/lib/singleton";
import { notifyInvalidated, onInvalidated } from "@/lib/cache/invalidation";
import type { Environment, MerchantStatus, MerchantTier, ShopStatus } from "@/lib/generated/prisma/enums";

export type Principal = {
  keyPairId: string;
  environment: Environment;
  publishableKey: string;
  secretPreview: string;
  secretVersion: number;
  revoked: boolean;
  merchant: { id: string; name: string; email: string | null; industry: string | null; tier: MerchantTier; trustScore: number; status: MerchantStatus };
  shop: { id: string; name: string; status: ShopStatus } | null;
};

const TTL_MS = 5_000;

type Entry = { at: number; value: Principal | null };
const cache = singleton("principal-cache", () => {
  const byKey = new Map<string, Entry>();
  onInvalidated("credentials", () => byKey.clear());
  return { byKey };
});

const select = {
  id: true,
  environment: true,
  publishableKey: true,
  secretPreview: true,
  secretVersion: true,
  revokedAt: true,
  merchant: { select: { id: true, name: true, email: true, industry: true, tier: true, trustScore: true, status: true } },
  shop: { select: { id: true, name: true, status: true } },
} as const;

type Row = { id: string; environment: Environment; publishableKey: string; secretPreview: string; secretVersion: number; revokedAt: Date | null; merchant: Principal["merchant"]; shop: Principal["shop"] };

function toPrincipal(row: Row | null): Principal | null {
  if (!row) return null;
  return {
    keyPairId: row.id,
    environment: row.environment,
    publishableKey: row.publishableKey,
    secretPreview: row.secretPreview,
    secretVersion: row.secretVersion,
    revoked: row.revokedAt !== null,
    merchant: row.merchant,
    shop: row.shop,
  };
}

async function cached(key: string, load: () => Promise<Row | null>): Promise<Principal | null> {
  const hit = cache.byKey.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = toPrincipal(await load());
  if (cache.byKey.size > 50_000) cache.byKey.clear();
  cache.byKey.set(key, { at: Date.now(), value });
  return value;
}

export function principalBySecretHash(secretHash: string) {
  return cached(`s:${secretHash}`, () => db().apiKeyPair.findUnique({ where: { secretHash }, select }));
}
export function principalByPublishableKey(publishableKey: string) {
  return cached(`p:${publishableKey}`, () => db().apiKeyPair.findUnique({ where: { publishableKey }, select }));
}
export function principalByKeyPairId(id: string) {
  return cached(`i:${id}`, () => db().apiKeyPair.findUnique({ where: { id }, select }));
}

/** Called by every use case that changes a key, merchant or shop status (after commit). */
export async function notifyCredentialsChanged() {
  await notifyInvalidated("credentials");
}
