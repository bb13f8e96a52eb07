// `listen`: the merchant's listen inbox (a managed subscription to every event, made once per
// merchant and sandbox, so its secret stays the same across sessions) and the stream of what it
// receives. The managed inbox already verifies and stores each delivery; the stream reads those
// messages and hands each one over exactly as it was signed, so the laptop's receiver verifies
// it as it would in production, with no inbound port on the laptop.
import { randomBytes } from "node:crypto";
import { db, sql } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { seal } from "@/lib/platform/crypto/secret-box";
import { isDraining } from "@/lib/platform/lifecycle";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { inboxUrl, signingSecrets } from "@/lib/webhooks/subscriptions";
import { standardSignature } from "@/lib/webhooks/sign";
import { actorOf, recordSecurityEvent } from "@/lib/accounts/record-security-event";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { WebhookSubscription } from "@/lib/generated/prisma/client";
import { merchantScope } from "@/lib/platform/scope";

/** Marks the listen inbox among the merchant's managed subscriptions (its URL is ours). */
export const LISTEN_MARKER = "?listen=cli";
const POLL_MS = 300;
const KEEP_ALIVE_MS = 15_000;
/** A stream ends after this long (`event: bye`); the CLI reconnects with `after`. */
const MAX_STREAM_MS = 30 * 60_000;
/** Inbox rows are read again this far back: a row committed late (an earlier receivedAt), or whose delivery was still being recorded, is not missed. */
const LATE_COMMIT_MS = 10_000;

export async function listenSubscription(auth: Pick<AuthContext, "merchant" | "environment" | "shop">): Promise<WebhookSubscription> {
  // A shop key's inbox is its shop's (decisions.md "Shops": it lists and receives that shop's only).
  const shopId = auth.shop?.id ?? null;
  const where = { ...merchantScope(auth), shopId, managed: true, deletedAt: null, url: { endsWith: LISTEN_MARKER } };
  const found = await db().webhookSubscription.findFirst({ where, orderBy: { createdAt: "asc" } });
  if (found) return found.status === "enabled" ? found : db().webhookSubscription.update({ where: { id: found.id }, data: { status: "enabled", failingSince: null } });
  // Two first sessions at once make one inbox.
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`listen:${auth.merchant.id}:${auth.environment}:${shopId ?? ""}`}))`;
    const again = await tx.webhookSubscription.findFirst({ where, orderBy: { createdAt: "asc" } });
    if (again) return again;
    const id = newId("webhook");
    return tx.webhookSubscription.create({
      data: { id, ...merchantScope(auth), shopId, url: `${inboxUrl(id)}${LISTEN_MARKER}`, managed: true, events: ["*"], secretEncrypted: seal(`whsec_${randomBytes(24).toString("base64")}`) },
    });
  });
}

type Message = { id: string; delivery_id: string; event: string; signature: string; body: string; received_at: Date };

// The raw text is read, not the parsed JSON: jsonb prints one value one way, so the inbox row's
// text is byte for byte the body the delivery job signed (it sends events.payload::text). A
// message is handed over once the delivery job has recorded the inbox's answer (its lease is
// released), so the laptop's answer, reported next, is the one the log keeps.
const READ = `
  SELECT m.id, m.delivery_id, m.event, m.signature, m.payload::text AS body, m.received_at
  FROM inbox_messages m JOIN webhook_deliveries d ON d.id = m.delivery_id
  WHERE m.subscription_id = $1 AND m.received_at > $2 AND ($3::text[] IS NULL OR m.event = ANY($3::text[])) AND d.locked_until IS NULL
  ORDER BY m.received_at, m.id LIMIT 100`;

/** The headers the delivery carried: its X-Service-Signature as received, the Standard Webhooks ones from the same timestamp. */
function headersOf(m: Message, eventId: string, secrets: string[]): Record<string, string> {
  const t = Number(/(?:^|,)\s*t=(\d+)/.exec(m.signature)?.[1] ?? "0");
  return {
    "content-type": "application/json",
    "x-service-signature": m.signature,
    "x-service-event": m.event,
    "x-service-delivery": m.delivery_id,
    "webhook-id": eventId,
    "webhook-timestamp": String(t),
    "webhook-signature": secrets.map((s) => standardSignature(eventId, t, m.body, s)).join(" "),
  };
}

export async function openListenStream(auth: AuthContext, query: { events?: string; secret?: "true" | "false"; after?: string }, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const s = await listenSubscription(auth);
  const wanted = query.events && !query.events.split(",").some((t) => t.trim() === "*") ? [...new Set(query.events.split(",").map((t) => t.trim()))] : null;
  const { current, previous } = signingSecrets(s);
  if (query.secret === "true") await recordSecurityEvent({ merchantId: auth.merchant.id, type: "webhook_secret.revealed", ...actorOf(auth), details: { webhookId: s.id, environment: auth.environment } });
  const resumeFrom = query.after ? await db().inboxMessage.findFirst({ where: { id: query.after, subscriptionId: s.id }, select: { receivedAt: true } }) : null;
  let since = resumeFrom?.receivedAt ?? new Date();
  const sent = new Map<string, number>(); // message id -> receivedAt ms, for the late-commit window
  if (query.after) sent.set(query.after, since.getTime());
  const started = Date.now();
  const encoder = new TextEncoder();
  let closed = false;
  signal.addEventListener("abort", () => (closed = true), { once: true });

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          closed = true;
        }
      };
      const ready = { subscriptionId: s.id, events: wanted ?? [...SUBSCRIBABLE_EVENT_TYPES], ...(query.secret === "true" ? { secret: current } : {}) };
      send(`retry: 1000\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
      void (async () => {
        let beat = Date.now();
        while (!closed) {
          if (isDraining() || Date.now() - started > MAX_STREAM_MS) {
            send(`event: bye\ndata: ${JSON.stringify({ reason: isDraining() ? "server_stopping" : "max_duration" })}\n\n`);
            break;
          }
          const rows = await sql<Message>(READ, [s.id, new Date(since.getTime() - LATE_COMMIT_MS), wanted]);
          for (const m of rows) {
            if (sent.has(m.id)) continue;
            sent.set(m.id, m.received_at.getTime());
            const eventId = (JSON.parse(m.body) as { id?: string }).id ?? "";
            const data = { id: m.id, deliveryId: m.delivery_id, event: m.event, body: m.body, headers: headersOf(m, eventId, previous ? [current, previous] : [current]) };
            send(`id: ${m.id}\nevent: delivery\ndata: ${JSON.stringify(data)}\n\n`);
            if (m.received_at > since) since = m.received_at;
          }
          for (const [id, at] of sent) if (at < since.getTime() - 2 * LATE_COMMIT_MS) sent.delete(id);
          if (Date.now() - beat >= KEEP_ALIVE_MS) {
            send(": keep-alive\n\n");
            beat = Date.now();
          }
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        closed = true;
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      })().catch((err: unknown) => {
        closed = true;
        try {
          controller.error(err);
        } catch {
          // the client is gone
        }
      });
    },
    cancel() {
      closed = true;
    },
  });
}
