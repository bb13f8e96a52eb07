// Cross-process cache invalidation: a use case that changes cached data (keys, statuses, shop
// methods) calls notifyInvalidated(topic) after commit; every server LISTENs on one channel and
// drops its caches of that topic. Caches also keep a short TTL, so a missed notification (or a
// database without LISTEN across connections, like the embedded one) only delays the change.
import pg from "pg";
import { config } from "@/lib/platform/config";
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, isDraining, onShutdown } from "@/lib/platform/lifecycle";

const CHANNEL = "cache_invalidate";
type Topic = "credentials" | "shop_methods" | "decline_rules" | "routing_rules";

// `lostAt`: when the listener was lost (null while it listens); `failures`: connections lost or refused in a row.
const state = singleton("cache-invalidation", () => ({ listeners: new Map<Topic, Set<() => void>>(), listening: false, connected: false, lostAt: null as number | null, failures: 0 }));

/** Reconnect waits: 250 ms doubling to 10 s, with jitter, for as long as the process lives. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export function onInvalidated(topic: Topic, clear: () => void) {
  let set = state.listeners.get(topic);
  if (!set) state.listeners.set(topic, (set = new Set()));
  set.add(clear);
  listen();
}

function clearLocal(topic: string) {
  for (const clear of state.listeners.get(topic as Topic) ?? []) clear();
}

export async function notifyInvalidated(topic: Topic) {
  clearLocal(topic);
  await db().$executeRaw`SELECT pg_notify(${CHANNEL}, ${topic})`;
}

/**
 * For /readyz: "ok" while listening (or before anything is cached), else why not. While it is
 * lost, a change made on another instance reaches this one only when its cache entry expires.
 */
export function invalidationListenerStatus(): "ok" | string {
  if (!state.listening || state.connected) return "ok";
  const since = state.lostAt === null ? "" : ` for ${Math.round((Date.now() - state.lostAt) / 1000)} s`;
  return `the cache invalidation listener is not connected${since} (reconnecting; caches rely on their TTLs)`;
}

function listen() {
  if (state.listening) return;
  let url: string | undefined;
  try {
    url = config().DATABASE_URL;
  } catch {
    // `next build` evaluates modules without runtime configuration; the server that runs has it
    // (and refuses to start without it), and listens then.
    return;
  }
  state.listening = true;
  if (!url) return;
  let current: pg.Client | null = null;
  onShutdown("cache invalidation listener", CLOSE_ORDER.clients, async () => current?.end());
  const lost = (client: pg.Client, err: Error | null) => {
    if (current !== client) return; // this client was already given up on
    current = null;
    client.end().catch(() => {});
    if (isDraining()) return;
    state.connected = false;
    state.lostAt ??= Date.now();
    state.failures++;
    // One warning when it is lost; the attempts that follow stay quiet until it is back.
    if (state.failures === 1) log.warn({ err: err?.message ?? "connection ended" }, "cache invalidation listener lost; reconnecting with back-off (caches rely on their TTLs meanwhile)");
    const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(state.failures - 1, 10));
    setTimeout(connect, wait / 2 + Math.random() * (wait / 2)).unref();
  };
  const connect = () => {
    if (isDraining()) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    current = client;
    client.on("notification", (msg) => clearLocal(msg.payload ?? ""));
    client.on("error", (err) => lost(client, err));
    client.on("end", () => lost(client, null));
    client
      .connect()
      .then(() => {
        // The listener must never keep a process alive on its own (scripts, tests).
        (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
        return client.query(`LISTEN ${CHANNEL}`);
      })
      .then(() => {
        if (current !== client) return;
        if (state.lostAt !== null) {
          log.info({ downMs: Date.now() - state.lostAt }, "cache invalidation listener reconnected");
          // Notifications sent while it was away are lost: drop every cache once.
          for (const topic of state.listeners.keys()) clearLocal(topic);
        }
        state.connected = true;
        state.lostAt = null;
        state.failures = 0;
      })
      .catch((err) => lost(client, err));
  };
  connect();
}
