// Outbound URL rules (decisions.md): in production only https, and never a host that resolves to
// a private, loopback or link-local address (SSRF). The sandbox allows them for local testing.
// Checked when a URL is set and again before each delivery (DNS can change).
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "@/lib/errors";
import type { Environment } from "@/lib/generated/prisma/enums";

export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a, b] = ip.split(".").map(Number) as [number, number];
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const v6 = ip.toLowerCase();
  if (v6.startsWith("::ffff:")) return isPrivateAddress(v6.slice(7));
  return v6 === "::1" || v6 === "::" || v6.startsWith("fc") || v6.startsWith("fd") || v6.startsWith("fe80");
}

export async function assertDeliverableUrl(url: string, environment: Environment): Promise<void> {
  if (environment === "sandbox") return;
  const u = new URL(url);
  if (u.protocol !== "https:") throw new AppError("invalid_request", "Production webhook URLs must use https.", { param: "url" });
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new AppError("invalid_request", `The host ${host} does not resolve.`, { param: "url" });
  if (addresses.some(isPrivateAddress)) throw new AppError("invalid_request", "Webhook URLs may not point at private, loopback or link-local addresses.", { param: "url" });
}
