// What a production deployment must declare beyond lib/platform/config.ts' secrets: shared rate limits
// (Redis, or an explicit opt-out), well-formed trusted proxies, and a refusal to run on the
// undeclared production (NODE_ENV=production, which a bare `next start` sets, without APP_ENV).
import ipaddr from "ipaddr.js";
import type { z } from "zod";

/** An invalid or refused configuration: the process must not start. */
export class ConfigError extends Error {}

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** "10.0.0.0/8, 2001:db8::/32, 192.0.2.7" -> CIDRs (a bare address is a /32 or /128). */
export function parseTrustedProxies(value: string, ctx?: z.RefinementCtx): Cidr[] {
  const out: Cidr[] = [];
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    try {
      if (part.includes("/")) out.push(ipaddr.parseCIDR(part) as Cidr);
      else {
        const addr = ipaddr.parse(part);
        out.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
      }
    } catch {
      ctx?.addIssue({ code: "custom", message: `"${part}" is not an address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32)` });
    }
  }
  return out;
}

type ProductionView = { REDIS_URL?: string; ALLOW_LOCAL_RATE_LIMITS: boolean };

export function requireProductionExtras(c: ProductionView, ctx: z.RefinementCtx) {
  if (!c.REDIS_URL && !c.ALLOW_LOCAL_RATE_LIMITS) {
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_URL"],
      message: "is required in production so every instance shares the rate limits and sign-in throttle (or set ALLOW_LOCAL_RATE_LIMITS=1 to accept per-instance limits)",
    });
  }
}

/**
 * NODE_ENV=production (which `next start` and `next build` set) without APP_ENV would otherwise
 * run as development: the built-in secrets, or, with real ones, /metrics open, no two-factor,
 * demo data and simulated providers. Production is declared, never inferred from what else is
 * set: refused whatever the secrets are.
 */
export function refuseUndeclaredProduction(env: Record<string, string | undefined>, devSecret: string) {
  if (env.NODE_ENV !== "production" || env.APP_ENV) return;
  const weak = ["AUTH_SECRET", "JWT_SECRET", "ENCRYPTION_KEY"].filter((k) => !env[k] || env[k] === devSecret);
  const secrets = weak.length === 0 ? "" : `; ${weak.join(", ")} ${weak.length === 1 ? "is" : "are"} not set either (refusing to run on the built-in development secrets)`;
  throw new ConfigError(
    `invalid configuration:\n  APP_ENV: NODE_ENV=production but APP_ENV is not set${secrets}. Production is never inferred.\n` +
      `  Set APP_ENV=production with real secrets (see docs/operators/security.md), or APP_ENV=development for a local run.`,
  );
}
