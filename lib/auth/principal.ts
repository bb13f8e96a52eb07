// What a credential resolves to: the key pair with its merchant and shop. Cached briefly per
// process (key lookups are on every request); changes to keys or statuses notify every server
// to drop its cache (lib/cache/invalidation.ts), and a 5 s TTL bounds staleness. Unknown
// credentials are remembered in a separate, smaller cache: a flood of invented keys can only
// push out other invented keys, never a real one.
import { db } from "@/lib/db";
import { singleton } from "@/lib/singleton";
import { rememberBounded } from "@/lib/cache/bounded";
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

const MAX_KNOWN = 50_000;
const MAX_UNKNOWN = 10_000;

type Entry = { at: number; value: Principal };
const cache = singleton("principal-cache", () => {
  const byKey = new Map<string, Entry>();
  const unknown = new Map<string, number>();
  onInvalidated("credentials", () => {
    byKey.clear();
    unknown.clear();
  });
  return { byKey, unknown };
});

/** Called on a cache miss, before the database is asked (the failed-authentication limit). */
export type BeforeLookup = () => Promise<void>;

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

async function cached(key: string, load: () => Promise<Row | null>, beforeLookup?: BeforeLookup): Promise<Principal | null> {
  const now = Date.now();
  const hit = cache.byKey.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const miss = cache.unknown.get(key);
  if (miss !== undefined && now - miss < TTL_MS) return null;
  await beforeLookup?.();
  const value = toPrincipal(await load());
  if (value) {
    cache.unknown.delete(key);
    rememberBounded(cache.byKey, key, { at: Date.now(), value }, MAX_KNOWN);
  } else {
    cache.byKey.delete(key);
    rememberBounded(cache.unknown, key, Date.now(), MAX_UNKNOWN);
  }
  return value;
}

export function principalBySecretHash(secretHash: string, beforeLookup?: BeforeLookup) {
  return cached(`s:${secretHash}`, () => db().apiKeyPair.findUnique({ where: { secretHash }, select }), beforeLookup);
}
export function principalByPublishableKey(publishableKey: string, beforeLookup?: BeforeLookup) {
  return cached(`p:${publishableKey}`, () => db().apiKeyPair.findUnique({ where: { publishableKey }, select }), beforeLookup);
}
export function principalByKeyPairId(id: string) {
  return cached(`i:${id}`, () => db().apiKeyPair.findUnique({ where: { id }, select }));
}

/** Called by every use case that changes a key, merchant or shop status (after commit). */
export async function notifyCredentialsChanged() {
  await notifyInvalidated("credentials");
}
