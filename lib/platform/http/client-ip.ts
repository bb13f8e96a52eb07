// The client's address. The one address nobody can forge is the socket's peer, which the server
// stamps into PEER_HEADER (lib/platform/http/peer-address.ts). When that peer is one of our own proxies
// (TRUSTED_PROXIES, CIDRs), the hop it appended to X-Forwarded-For is believed, and so on
// leftwards while the hop believed is itself a trusted proxy; the first hop that is not one is
// the client. Anything further left is the client's own claim (a buyer can send
// `X-Forwarded-For: 1.2.3.4` and must not become 1.2.3.4). With no trusted proxy (the default)
// forwarding headers are ignored and the peer is the client. X-Real-IP is believed only from a
// trusted peer when X-Forwarded-For names nobody.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/platform/config";
import type { Cidr } from "@/lib/platform/config-production";

/** Set by the server on every request from the socket (never from what the client sent). */
export const PEER_HEADER = "x-lp-peer-address";

function normalise(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let v = raw.trim();
  // "[2001:db8::1]:443" and "203.0.113.9:51234" carry a port some proxies add.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(":"));
  if (v.toLowerCase().startsWith("::ffff:") && isIP(v.slice(7)) === 4) v = v.slice(7);
  return isIP(v) ? v : null;
}

export function isTrustedProxy(ip: string, trusted: Cidr[]): boolean {
  if (trusted.length === 0) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  return trusted.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range as never, bits));
}

/**
 * The client per `trusted` proxies. `peer` is the socket's peer address; null when unknown
 * (the request arrived before the server stamped peers), which is then also the answer.
 */
export function clientIpFrom(headers: Headers, trusted: Cidr[], peer: string | null = normalise(headers.get(PEER_HEADER))): string | null {
  let current = normalise(peer);
  if (!current) return null;
  if (!isTrustedProxy(current, trusted)) return current;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalise(hops[i]);
    // A proxy of ours vouching for garbage: the client is unknown.
    if (!hop) return null;
    current = hop;
    if (!isTrustedProxy(hop, trusted)) return hop;
  }
  // Every hop is one of ours (Next also writes the peer when no proxy sent the header): an
  // nginx-style edge names the client in X-Real-IP.
  return normalise(headers.get("x-real-ip")) ?? current;
}

/** The customer's address per TRUSTED_PROXIES, or null when unknown. */
export function clientIp(headers: Headers): string | null {
  return clientIpFrom(headers, config().TRUSTED_PROXIES);
}
