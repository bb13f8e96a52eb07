// The client's address as our own edge saw it. X-Forwarded-For is a list each proxy appends to:
// "<whatever the client sent>, <client as seen by the edge>, <edge as seen by proxy 2>, ...".
// Only the hops our proxies wrote can be trusted, so with N trusted proxies the client is the
// N-th hop from the right; anything further left is the client's own claim (a buyer can send
// `X-Forwarded-For: 1.2.3.4` and must not become 1.2.3.4). Without enough hops, X-Real-IP
// (set by nginx-style edges), else unknown. With no trusted proxy every such header is the
// client's own claim, so none is believed. (Next's server fills in X-Forwarded-For with the
// socket's peer when a request arrives without one.)
import { isIP } from "node:net";
import { config } from "@/lib/config";

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

export function clientIpFrom(headers: Headers, trustedProxies: number): string | null {
  if (trustedProxies === 0) return null;
  {
    const hops = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    if (hops.length >= trustedProxies) {
      const ip = normalise(hops[hops.length - trustedProxies]);
      if (ip) return ip;
    }
  }
  return normalise(headers.get("x-real-ip"));
}

/** The customer's address per TRUSTED_PROXY_COUNT, or null when no trusted header names one. */
export function clientIp(headers: Headers): string | null {
  return clientIpFrom(headers, config().TRUSTED_PROXY_COUNT);
}
