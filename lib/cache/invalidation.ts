// Cross-process cache invalidation: a use case that changes cached data (keys, statuses, shop
// methods) calls notifyInvalidated(topic) after commit; every server LISTENs on one channel and
// drops its caches of that topic. Caches also keep a short TTL, so a missed notification (or a
// database without LISTEN across connections, like the embedded one) only delays the change.
import pg from "pg";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { singleton } from "@/lib/singleton";
import { CLOSE_ORDER, isDraining, onShutdown } from "@/lib/lifecycle";

const CHANNEL = "cache_invalidate";
type Topic = "credentials" | "shop_methods" | "decline_rules" | "routing_rules";

const state = singleton("cache-invalidation", () => ({ listeners: new Map<Topic, Set<() => void>>(), listening: false }));

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
  const connect = () => {
    if (isDraining()) return;
    const client = new pg.Client({ connectionString: url });
    current = client;
    client.on("notification", (msg) => clearLocal(msg.payload ?? ""));
    client.on("error", (err) => {
      if (isDraining()) return;
      log.warn({ err: err.message }, "cache invalidation listener lost; reconnecting");
      client.end().catch(() => {});
      setTimeout(connect, 1_000).unref();
    });
    client
      .connect()
      .then(() => {
        // The listener must never keep a process alive on its own (scripts, tests).
        (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
        return client.query(`LISTEN ${CHANNEL}`);
      })
      .catch((err) => {
        log.warn({ err: err.message }, "cache invalidation listener unavailable; relying on TTLs");
        client.end().catch(() => {});
      });
  };
  connect();
}
