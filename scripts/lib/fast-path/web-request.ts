// The Web Request a hand-written route handler (not made by route()) is given on the fast path:
// the client's headers with the peer and forwarded headers stamped, a body streamed from the
// socket, and a signal that fires when the client goes away.
import type { IncomingMessage } from "node:http";
import { PEER_HEADER } from "./plain-io.ts";
import { stampedHeaders } from "./request-headers.ts";

export function toRequest(req: IncomingMessage, signal: AbortSignal, body: ReadableStream<Uint8Array> | null): Request {
  // Pairs, not a Headers object: the Request builds its own Headers from them (building one here
  // too validated and copied every header twice). The client's own peer header is dropped.
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== PEER_HEADER) headers.push([raw[i]!, raw[i + 1]!]);
  headers.push(...stampedHeaders(req));
  const host = req.headers.host ?? "localhost";
  const method = req.method!;
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (body) {
    init.body = body;
    init.duplex = "half";
  }
  return new Request(`http://${host}${req.url}`, init);
}
