// What a credential resolves to: the key pair with its merchant and shop. Cached briefly per
// process (key lookups are on every request); changes to keys or statuses notify every server
// to drop its cache (lib/platform/cache/invalidation.ts), and a 5 s TTL bounds staleness. Unknown
// credentials are remembered in a separate, smaller cache: a flood of invented keys can only
// push out other invented keys, never a real one.
import { db } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { rememberBounded } from "@/lib/platform/bounded";
import { notifyInvalidated, onInvalidated } from "@/lib/platform/cache/invalidation";
import type { Environment, MerchantStatus, MerchantTier, ShopStatus } from "@/lib/generated/prisma/enums";

export type Principal = {
  keyPairId: string;
  environment: Environment;
  publishableKey: string;
  secretPreview: string;
  secretVersion: number;
  revoked: boolean;
  merchant: { id: string; name: string; email: string | null; industry: string | null; tier: MerchantTier; trustScore: number; status: MerchantStatus; timeZone: string };
  shop: { id: string; name: string; status: ShopStatus } | null;
};

const TTL_MS = 5_000;

const MAX_KNOWN = 50_000;
const MAX_UNKNOWN = 10_000;

type Entry = { at: number; value: Principal };
const cache = singleton("principal-cache", () => {
  const byKey = new Map<string, Entry>();
  const unknown = new Map<string, number>();
  // Lookups in flight, one per credential: concurrent requests with the same key share it.
  const inFlight = new Map<string, Promise<Principal | null>>();
  const state = { generation: 0 };
  onInvalidated("credentials", () => {
    byKey.clear();
    unknown.clear();
    inFlight.clear();
    state.generation++;
  });
  return { byKey, unknown, inFlight, state };
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
  merchant: { select: { id: true, name: true, email: true, industry: true, tier: true, trustScore: true, status: true, timeZone: true } },
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
  // One lookup per credential at a time. Without it, every request of a busy key arriving while
  // its entry is refreshed (each TTL) looked it up again, and each lookup took a place in the
  // failed-authentication count (lib/platform/auth/failed-auth.ts) before giving it back: 50 concurrent
  // requests went past the allowance and a real key got 429s every 5 s. A request that joins a
  // lookup in flight is not a lookup and takes no place; an unknown key it gets back is still
  // counted as a failure by its own guard.
  const pending = cache.inFlight.get(key);
  if (pending) return pending;
  const generation = cache.state.generation;
  const lookup = (async () => {
    await beforeLookup?.();
    const value = toPrincipal(await load());
    // A change notified while the lookup ran may make its answer stale: keep it out of the cache.
    if (cache.state.generation !== generation) return value;
    if (value) {
      cache.unknown.delete(key);
      rememberBounded(cache.byKey, key, { at: Date.now(), value }, MAX_KNOWN);
    } else {
      cache.byKey.delete(key);
      rememberBounded(cache.unknown, key, Date.now(), MAX_UNKNOWN);
    }
    return value;
  })();
  cache.inFlight.set(key, lookup);
  try {
    return await lookup;
  } finally {
    if (cache.inFlight.get(key) === lookup) cache.inFlight.delete(key);
  }
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
