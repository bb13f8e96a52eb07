// The one way to send a request to a merchant-given URL. The connection goes to the exact address
// the policy checked: a literal is judged as written; a host name is resolved once, inside the
// HTTP agent's `lookup`, every answer is judged, and the socket opens to that answer (Node does
// not resolve again). Refused addresses fail before any socket is opened. The answer is read as
// a stream and cut at RESPONSE_LIMIT bytes; redirects are not followed.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { addressAllowed, classifyAddress, resolveHost, REFUSED_MESSAGE, type OutboundPolicy } from "@/lib/webhooks/url-policy";

export const RESPONSE_LIMIT = 1024;

export class OutboundRefused extends Error {
  name = "OutboundRefused";
}

export type OutboundResult = { status: number; body: string };

/** A `lookup` for http(s).request that answers only with addresses `policy` allows. */
export function checkedLookup(policy: OutboundPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number } | number, callback: (...args: unknown[]) => void) => {
    const all = typeof options === "object" && options?.all === true;
    resolveHost(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }));
        const refused = addresses.find((a) => !addressAllowed(a, policy));
        if (refused) return callback(new OutboundRefused(`${REFUSED_MESSAGE} (${hostname} resolved to ${classifyAddress(refused)?.address ?? refused})`));
        const list = addresses.map((address) => ({ address, family: isIP(address) }));
        if (all) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => callback(err),
    );
  }) as unknown as LookupFunction;
}

/**
 * POSTs `body` to `url` under `policy`; throws OutboundRefused, or a network/timeout error.
 * `agent`: a keep-alive pool for this destination and policy (lib/webhooks/agents.ts); without
 * one, a fresh connection that closes after the answer. A pooled socket the receiver had closed
 * while it sat idle (ECONNRESET on a reused socket before any answer: the known keep-alive race,
 * where the close crossed our request) is sent again once, at once, on a fresh connection within
 * the same timeout, so it does not count as a failed attempt (should the receiver have read the
 * first, it drops the second by event id, as with any retry).
 */
export async function postChecked(url: string, body: string, headers: Record<string, string>, policy: OutboundPolicy, timeoutMs: number, opts: { agent?: (u: URL) => http.Agent } = {}): Promise<OutboundResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutboundRefused("invalid URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new OutboundRefused("only http and https");
  if (policy.environment === "production" && u.protocol !== "https:" && !policy.ownInbox) throw new OutboundRefused("production webhook URLs must use https");
  const host = u.hostname.replace(/^\[|\]$/g, "");
  // A literal never goes through `lookup`: judge it here.
  if (isIP(host) && !addressAllowed(host, policy)) throw new OutboundRefused(REFUSED_MESSAGE);
  const started = Date.now();
  try {
    return await send(u, body, headers, policy, timeoutMs, opts.agent ? opts.agent(u) : false);
  } catch (err) {
    if (!(err instanceof StaleSocket)) throw err;
    return send(u, body, headers, policy, Math.max(1, timeoutMs - (Date.now() - started)), false);
  }
}

/** ECONNRESET on a pooled socket before any answer. */
class StaleSocket extends Error {
  name = "StaleSocket";
}

function send(u: URL, body: string, headers: Record<string, string>, policy: OutboundPolicy, timeoutMs: number, agent: http.Agent | false): Promise<OutboundResult> {
  return new Promise((resolve, reject) => {
    const mod = u.protocol === "https:" ? https : http;
    let answered = false;
    const req = mod.request(
      u,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: checkedLookup(policy),
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_LIMIT) });
        res.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_LIMIT) return;
          chunks.push(chunk.subarray(0, RESPONSE_LIMIT - size));
          size += Math.min(chunk.length, RESPONSE_LIMIT - size);
          if (size >= RESPONSE_LIMIT) {
            // Enough: the rest of the answer is never read.
            done();
            res.destroy();
          }
        });
        res.on("end", done);
        res.on("error", (err) => (size >= RESPONSE_LIMIT ? done() : reject(err)));
      },
    );
    const deadline = setTimeout(() => req.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })), timeoutMs);
    req.on("close", () => clearTimeout(deadline));
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })));
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (agent && req.reusedSocket && !answered && err.code === "ECONNRESET") reject(new StaleSocket(err.message));
      else reject(err);
    });
    req.end(body);
  });
}
