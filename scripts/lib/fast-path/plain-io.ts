// What the fast path (scripts/lib/api-dispatch.ts) and the app's HTTP layer agree on without
// importing each other: lib/platform/http/ is the app's, loaded by Next's bundle, so its marks are
// shared by name (Symbol.for) and its header name is repeated here.

/** lib/platform/http/client-ip.ts PEER_HEADER (not imported: that module is the app's, loaded by Next's bundle). */
export const PEER_HEADER = "x-lp-peer-address";
/** lib/platform/http/handler.ts PLAIN_IO: a handler that takes a PlainRequest, and its plain answer. */
export const PLAIN_IO = Symbol.for("latam-payments.plain-io");
/** lib/platform/http/body.ts DIRECT_BODY: a PlainRequest's body read off the socket, no web stream. */
export const DIRECT_BODY = Symbol.for("latam-payments.direct-body");
/** What a PLAIN_IO handler answers: one finished body and its status and headers. */
export type PlainAnswer = { [PLAIN_IO]: true; status: number; headers: Record<string, string>; body: string | Uint8Array };

export function isPlainAnswer(v: unknown): v is PlainAnswer {
  return typeof v === "object" && v !== null && PLAIN_IO in v;
}
