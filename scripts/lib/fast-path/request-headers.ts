// A request's headers as the fast path hands them to a handler: the client's, with what Next's
// server would have added (the socket's peer in PEER_HEADER, overwriting the client's, and the
// forwarded headers the client did not send).
import type { IncomingMessage } from "node:http";
import { PEER_HEADER } from "./plain-io.ts";

/** A request's headers as a route reads them (get, has), straight from the parser's raw list. */
export class PlainHeaders {
  constructor(
    private readonly raw: string[],
    private readonly added: Map<string, string>,
  ) {}
  get(name: string): string | null {
    const wanted = name.toLowerCase();
    const stamped = this.added.get(wanted);
    if (stamped !== undefined) return stamped;
    if (wanted === PEER_HEADER) return null;
    let value: string | null = null;
    const raw = this.raw;
    for (let i = 0; i < raw.length; i += 2) {
      const n = raw[i]!;
      // Repeated headers join with ", ", as the Web Headers does.
      if (n.length === wanted.length && n.toLowerCase() === wanted) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/**
 * What Next's server adds to a request before a handler runs: the socket's peer (ours read the
 * peer, never the forwarded claim) and the forwarded headers the client did not send.
 */
export function stampedHeaders(req: IncomingMessage): Map<string, string> {
  const stamped = new Map<string, string>([[PEER_HEADER, req.socket.remoteAddress ?? ""]]);
  const h = req.headers;
  if (h["x-forwarded-host"] === undefined) stamped.set("x-forwarded-host", h.host ?? "localhost");
  if (h["x-forwarded-proto"] === undefined) stamped.set("x-forwarded-proto", "http");
  if (h["x-forwarded-for"] === undefined && req.socket.remoteAddress) stamped.set("x-forwarded-for", req.socket.remoteAddress);
  return stamped;
}
