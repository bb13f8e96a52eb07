// Mercado Pago's webhooks, as https://www.mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks
// (devsite-docs guides/additional-content/your-integrations/webhooks.en.md) describes them:
// POST <notification_url>?data.id=<payment id>&type=payment with the body
//   {id, live_mode, type: "payment", date_created, user_id, api_version, action: "payment.updated", data: {id}}
// and two headers: `x-request-id`, and `x-signature: ts=<timestamp>,v1=<hex HMAC-SHA256>` keyed
// with the application's secret signature (Your integrations > Webhooks) over the manifest
//   id:<data.id of the query>;request-id:<x-request-id>;ts:<ts>;
// where a value the notification lacks is left out with its part ("If any of the values shown
// in the above template are not present in your notification, you should remove them"). An
// alphanumeric data.id is signed lowercased: the rule as given for MP's alphanumeric (Order) ids;
// the payments page read here (devsite-docs webhooks.en.md) does not state it, and a payment's
// numeric id is unchanged by it.
import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/platform/crypto/hash";
import type { InboundNotice, NoticeReading } from "@/lib/providers/types";

/**
 * The page lets the integrator choose the tolerance. A notice is only a pointer (the payment is
 * read back from MP), so a replay can do no more than trigger a read; but MP re-sends an
 * unacknowledged notice every 15 minutes, and a re-sent notice may carry its first signature: 10
 * minutes refuses old captures and leaves a late first delivery its chance (reconciliation
 * catches the rest).
 */
export const NOTICE_TOLERANCE_MS = 10 * 60_000;

/** The page calls `ts` "the timestamp (in milliseconds)" and shows seconds (ts=1704908010): both are read. */
export const tsToMs = (ts: number) => (ts < 1e11 ? ts * 1000 : ts);

const dataIdForManifest = (id: string) => (/^[A-Za-z0-9]+$/.test(id) ? id.toLowerCase() : id);

export function manifest(dataId: string | null, requestId: string | null, ts: string): string {
  return `${dataId !== null ? `id:${dataIdForManifest(dataId)};` : ""}${requestId !== null ? `request-id:${requestId};` : ""}ts:${ts};`;
}

export const signManifest = (secret: string, m: string) => createHmac("sha256", secret).update(m).digest("hex");

/** The x-signature header MP would send (the simulator and tests sign with it). */
export function signatureHeader(secret: string, dataId: string | null, requestId: string | null, ts: string): string {
  return `ts=${ts},v1=${signManifest(secret, manifest(dataId, requestId, ts))}`;
}

/**
 * Verifies first (missing / invalid, then stale: only a genuine notice learns it is merely old),
 * then names what the notice points at. `noticeId` is made of what MP signs only (data.id of the
 * query, x-request-id, ts): the body's own `id` is not signed, so a replay inside the tolerance
 * with another body `id` would pass deduplication as a new notice. A re-delivery that carries its
 * first signature keeps its id; one signed anew is a new id, which costs one more read-back (the
 * status it reads applies idempotently). A topic other than payment is acknowledged and names nothing.
 */
export function readMercadoPagoNotice(secret: string | null, n: InboundNotice): NoticeReading {
  const header = n.headers.get("x-signature");
  if (!secret || !header) return { kind: "refused", check: "missing" };
  const parts = new Map(
    header.split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as [string, string];
    }),
  );
  const ts = parts.get("ts");
  const v1 = parts.get("v1");
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1) return { kind: "refused", check: "invalid" };
  const dataId = n.url.searchParams.get("data.id");
  const requestId = n.headers.get("x-request-id");
  if (!safeEqual(signManifest(secret, manifest(dataId, requestId, ts)), v1.toLowerCase())) return { kind: "refused", check: "invalid" };
  if (Math.abs(n.now.getTime() - tsToMs(Number(ts))) > NOTICE_TOLERANCE_MS) return { kind: "refused", check: "stale" };
  let body: any = null;
  try {
    body = JSON.parse(n.rawBody);
  } catch {}
  // The signature covers the query's data.id, not the body: the body's own data.id only counts when it agrees.
  const bodyId = body?.data?.id !== undefined ? String(body.data.id) : null;
  const type = n.url.searchParams.get("type") ?? body?.type ?? null;
  const noticeId = `mp_${dataId ?? ""}_${ts}${requestId !== null ? `_${requestId}` : ""}`.slice(0, 500);
  if (type !== "payment" || !dataId || (bodyId !== null && bodyId !== dataId)) return { kind: "verified", noticeId, subjects: [] };
  return { kind: "verified", noticeId, subjects: [{ kind: "charge", providerRef: dataId }] };
}
