// `listen`: webhooks on a laptop, as `stripe listen --forward-to` and `svix listen` give them. The
// service's listen inbox (a managed subscription made once per merchant, so its secret stays the
// same) receives every sandbox event; this opens a server-sent-events stream of what it receives
// (an outbound HTTPS connection: no inbound port on the laptop), POSTs each delivery to a local URL
// with its original body, headers and signatures, and reports the local answer back to the
// delivery log. Sandbox keys only.
import { createClient } from "./client.ts";

export type ListenOptions = {
  /** The API root, e.g. `https://payments.example.com/api/v1`. */
  baseUrl: string;
  /** A sandbox secret key (`sk_test_…`). */
  secretKey: string;
  /** Where to POST each delivery, e.g. `http://localhost:3000/hooks`. */
  forwardTo: string;
  /** Only these event types (default: all). */
  events?: string[];
  /** Ask for the listen inbox's signing secret (given to `onReady`). */
  revealSecret?: boolean;
  /** Per-forward timeout in ms (default 10 s, as the service's). */
  timeoutMs?: number;
  /** Stops listening. */
  signal?: AbortSignal;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
  onReady?: (info: { subscriptionId: string; events: string[]; secret?: string }) => void;
  onForward?: (result: ForwardResult) => void;
  /** Connection lost, reconnecting, a report that failed: worth a line, never fatal. */
  onNotice?: (message: string) => void;
};

export type ForwardResult = {
  deliveryId: string;
  event: string;
  eventId: string;
  status: number | null;
  body: string;
  durationMs: number;
  reported: boolean;
};

/** Refused before any call: a live key never opens a listen stream. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ListenError";
  }
}

type Delivery = { id: string; deliveryId: string; event: string; body: string; headers: Record<string, string> };

/** Reads server-sent events from a response body: yields `{event, id, data}` per message. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id?: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let id: string | undefined;
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (data.length) yield { event, id, data: data.join("\n") };
        event = "message";
        id = undefined;
        data = [];
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
    }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Listens until `signal` aborts: reconnects (resuming after the last message) when the stream
 * ends or the connection drops; throws `ListenError` when the service refuses (a live key, a bad
 * key, a bad filter).
 */
export async function listen(o: ListenOptions): Promise<void> {
  if (!o.secretKey.startsWith("sk_test_")) throw new ListenError("listen forwards sandbox events only: give a sandbox secret key (sk_test_…).");
  const forwardTo = new URL(o.forwardTo).toString();
  const baseUrl = o.baseUrl.replace(/\/+$/, "");
  const doFetch = o.fetch ?? globalThis.fetch;
  const client = createClient({ baseUrl, secretKey: o.secretKey, fetch: doFetch });
  let after: string | undefined;
  let failures = 0;
  while (!o.signal?.aborted) {
    const url = new URL(`${baseUrl}/webhooks/listen`);
    if (o.events?.length) url.searchParams.set("events", o.events.join(","));
    if (o.revealSecret) url.searchParams.set("secret", "true");
    if (after) url.searchParams.set("after", after);
    let res: Response;
    try {
      res = await doFetch(url, { headers: { authorization: `Bearer ${o.secretKey}`, accept: "text/event-stream", "accept-encoding": "identity" }, signal: o.signal });
    } catch (err) {
      if (o.signal?.aborted) return;
      failures++;
      o.onNotice?.(`connection failed (${(err as Error).message}); retrying`);
      await sleep(Math.min(10_000, 500 * 2 ** failures), o.signal);
      continue;
    }
    if (res.status >= 400 && res.status < 500 && res.status !== 429) {
      const e = ((await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } }).error;
      throw new ListenError(`the service refused to listen: ${res.status} ${e?.code ?? ""} ${e?.message ?? ""}`.trim(), res.status);
    }
    if (!res.ok || !res.body) {
      failures++;
      await res.body?.cancel();
      o.onNotice?.(`the service answered ${res.status}; retrying`);
      await sleep(Math.min(10_000, 500 * 2 ** failures), o.signal);
      continue;
    }
    try {
      for await (const m of serverSentEvents(res.body)) {
        if (m.event === "ready") {
          failures = 0;
          o.onReady?.(JSON.parse(m.data) as { subscriptionId: string; events: string[]; secret?: string });
        } else if (m.event === "delivery") {
          const d = JSON.parse(m.data) as Delivery;
          o.onForward?.(await forward(d, forwardTo, o.timeoutMs ?? 10_000, doFetch, client, o.onNotice));
          after = m.id ?? d.id;
        } else if (m.event === "bye") {
          break;
        }
      }
    } catch (err) {
      if (o.signal?.aborted) return;
      o.onNotice?.(`stream interrupted (${(err as Error).message}); reconnecting`);
    }
    if (!o.signal?.aborted) await sleep(300, o.signal);
  }
}

async function forward(d: Delivery, forwardTo: string, timeoutMs: number, doFetch: typeof fetch, client: ReturnType<typeof createClient>, notice?: (m: string) => void): Promise<ForwardResult> {
  const started = performance.now();
  let status: number | null = null;
  let body: string;
  try {
    const res = await doFetch(forwardTo, { method: "POST", headers: { ...d.headers, "user-agent": "LatamPayments-Listen/1" }, body: d.body, signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    status = res.status;
    body = (await res.text()).slice(0, 1024);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    body = e.name === "TimeoutError" ? "timeout" : (e.cause?.code ?? e.message);
  }
  const durationMs = Math.round(performance.now() - started);
  let reported = false;
  try {
    const r = await client.POST("/webhooks/listen/deliveries/{deliveryId}", { params: { path: { deliveryId: d.deliveryId } }, body: { status, body, durationMs, forwardedTo: forwardTo } });
    reported = r.response.ok;
    if (!reported) notice?.(`could not record the answer to ${d.deliveryId}: HTTP ${r.response.status}`);
  } catch (err) {
    notice?.(`could not record the answer to ${d.deliveryId}: ${(err as Error).message}`);
  }
  const eventId = d.headers["webhook-id"] ?? "";
  return { deliveryId: d.deliveryId, event: d.event, eventId, status, body, durationMs, reported };
}
