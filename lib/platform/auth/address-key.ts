// What a per-address limit counts. An IPv6 subscriber is handed a whole /64 (often more), so
// counting single IPv6 addresses would give one client 2^64 allowances: IPv6 counts by its /64.
// IPv4 (and IPv4-mapped IPv6, which lib/platform/http/client-ip.ts already unwraps) counts by address.
import ipaddr from "ipaddr.js";

export function addressKey(ip: string): string {
  if (!ip.includes(":")) return ip;
  try {
    const addr = ipaddr.parse(ip);
    if (addr.kind() === "ipv4") return addr.toString();
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const prefix = v6.parts.slice(0, 4).map((p) => p.toString(16));
    return `${prefix.join(":")}::/64`;
  } catch {
    return ip;
  }
}
