// Keep-alive connection pools for webhook delivery, one per destination (scheme, host, port) and
// outbound policy. A pooled socket was opened through the policy's checked `lookup`
// (lib/webhooks/outbound.ts) to an address that policy allowed; keying the pool by policy too means
// a socket checked for one policy (a sandbox subscription on a development deployment may reach
// loopback) is never reused under another. Idle sockets close after IDLE_MS; the least recently
// used pools are closed beyond MAX_POOLS destinations.
import http from "node:http";
import https from "node:https";
import { singleton } from "@/lib/platform/singleton";
import type { OutboundPolicy } from "@/lib/webhooks/url-policy";

const IDLE_MS = 4_000;
const MAX_POOLS = 500;

type Pools = Map<string, http.Agent>;
const pools = () => singleton("webhook-agent-pools", (): Pools => new Map());

/** The keep-alive agent for `url` under `policy`, at most `maxSockets` connections open to it. */
export function agentFor(url: URL, policy: OutboundPolicy, maxSockets: number): http.Agent {
  const key = `${policy.environment}|${policy.production ? 1 : 0}|${policy.ownInbox ? 1 : 0}|${url.protocol}//${url.host}`;
  const p = pools();
  let agent = p.get(key);
  if (agent) {
    // Most recently used last: Map keeps insertion order.
    p.delete(key);
    p.set(key, agent);
    return agent;
  }
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: IDLE_MS, scheduling: "lifo" as const };
  agent = url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  p.set(key, agent);
  if (p.size > MAX_POOLS) {
    const [oldest, a] = p.entries().next().value as [string, http.Agent];
    p.delete(oldest);
    // Requests in flight keep their sockets; only idle ones close now.
    a.destroy();
  }
  return agent;
}

/** Closes every pool (a clean stop, tests). */
export function closeAgents(): void {
  for (const a of pools().values()) a.destroy();
  pools().clear();
}
