// Outbound URL rules (decisions.md "Webhooks"). Production keys need https. A public unicast
// address is always reachable; loopback only for sandbox subscriptions of a development or test
// deployment (a developer's own machine); everything else (private, loopback in production,
// link-local and cloud metadata, unique-local, unspecified, multicast, broadcast, CGNAT,
// reserved and documentation ranges, Teredo, ...) never. IPv4 inside IPv6 is judged as the IPv4
// it carries: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
// (2002::/16); IPv4 literals in any notation (decimal, hex, octal, short) are parsed as such.
// Checked when a URL is set, and again on the address actually connected to
// (lib/webhooks/outbound.ts), so a second DNS answer cannot swap it.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import type { Environment } from "@/lib/generated/prisma/enums";

export type AddressClass = { address: string; range: string };

/** The IPv4 an IPv6 address carries (NAT64 well-known prefix, 6to4), if any. */
function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = v6.toByteArray();
  const range = v6.range();
  if (range === "rfc6052" && v6.match(ipaddr.IPv6.parse("64:ff9b::"), 96)) return ipaddr.IPv4.parse(b.slice(12, 16).join("."));
  if (range === "6to4") return ipaddr.IPv4.parse(b.slice(2, 6).join("."));
  return null;
}

/** Parses any textual form of an address and names its range; null when it is not an address. */
export function classifyAddress(raw: string): AddressClass | null {
  const text = raw.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process(): IPv4 in any notation; IPv4-mapped and -compatible IPv6 become the IPv4.
    addr = ipaddr.process(text);
  } catch {
    return null;
  }
  if (addr.kind() === "ipv6") {
    const inner = embeddedIpv4(addr as ipaddr.IPv6);
    if (inner) {
      const innerRange = inner.range();
      // A carrier of a public IPv4 is as public as that IPv4; of anything else, refused as it.
      return { address: addr.toString(), range: innerRange === "unicast" ? "unicast" : `${(addr as ipaddr.IPv6).range()}:${innerRange}` };
    }
  }
  return { address: addr.toString(), range: addr.range() };
}

/** `ownInbox`: the URL is our own managed inbox (APP_URL), built by us, not given by a merchant. */
export type OutboundPolicy = { environment: Environment; production: boolean; ownInbox?: boolean };

/** True when `policy` may connect to `raw`. */
export function addressAllowed(raw: string, policy: OutboundPolicy): boolean {
  if (policy.ownInbox) return true;
  const c = classifyAddress(raw);
  if (!c) return false;
  if (c.range === "unicast") return true;
  return c.range === "loopback" && policy.environment === "sandbox" && !policy.production;
}

/** Not a public unicast address (kept for callers that only ask that). */
export function isPrivateAddress(ip: string): boolean {
  return classifyAddress(ip)?.range !== "unicast";
}

export type Resolver = (host: string) => Promise<string[]>;
const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
let resolver: Resolver = systemResolver;

/** Tests replace DNS (never real traffic); null restores the system resolver. */
export function setResolver(r: Resolver | null): void {
  resolver = r ?? systemResolver;
}
export function resolveHost(host: string): Promise<string[]> {
  return resolver(host);
}

export function policyFor(environment: Environment, production = config().APP_ENV === "production"): OutboundPolicy {
  return { environment, production };
}

export const REFUSED_MESSAGE = "Webhook URLs may not point at private, loopback, link-local, metadata or other non-public addresses.";

export async function assertDeliverableUrl(url: string, environment: Environment, policy: OutboundPolicy = policyFor(environment)): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError("invalid_request", "The webhook URL is not a valid URL.", { param: "url" });
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new AppError("invalid_request", "Webhook URLs must use https (or http for sandbox).", { param: "url" });
  if (environment === "production" && u.protocol !== "https:") throw new AppError("invalid_request", "Production webhook URLs must use https.", { param: "url" });
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const literal = classifyAddress(host);
  const addresses = literal ? [host] : await resolver(host).catch(() => []);
  if (addresses.length === 0) throw new AppError("invalid_request", `The host ${host} does not resolve.`, { param: "url" });
  if (!addresses.every((a) => addressAllowed(a, policy))) throw new AppError("invalid_request", REFUSED_MESSAGE, { param: "url" });
}
