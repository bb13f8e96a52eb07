// Connector instances by provider code: the sandbox's own, a real provider's own connector, or
// the common protocol's HTTP connector of a configured simulated provider.
import { AppError } from "@/lib/platform/errors";
import { providerConfigs } from "@/lib/providers/registry";
import { HttpPspConnector } from "@/lib/providers/http-psp/connector";
import { REAL_CONNECTORS } from "@/lib/providers/real-connectors";
import { SandboxConnector } from "@/lib/providers/sandbox/connector";
import { singleton } from "@/lib/platform/singleton";
import type { Connector } from "@/lib/providers/types";
import { metrics } from "@/lib/platform/metrics/registry";

const CALLS = ["createCharge", "getStatus", "chargeByReference", "refund", "refundStatus", "provisionClabe", "clabeByReference", "payout", "payoutStatus", "checkCredentials", "readCharge"] as const;

/**
 * The connector with every provider call counted and timed (lp_provider_calls_total, by the
 * outcome's `kind`: accepted, declined, unavailable, …; `error` when it threw).
 */
function instrumented(c: Connector): Connector {
  const m = metrics();
  const wrapped = Object.create(c) as Connector;
  for (const op of CALLS) {
    const original = (c as unknown as Record<string, unknown>)[op];
    if (typeof original !== "function") continue;
    (wrapped as unknown as Record<string, unknown>)[op] = async (...args: unknown[]) => {
      const end = m.providerDuration.startTimer({ provider: c.code, operation: op });
      try {
        const out = await (original as (...a: unknown[]) => Promise<unknown>).apply(c, args);
        const kind = out && typeof out === "object" && "kind" in out ? String((out as { kind: unknown }).kind) : out === null ? "none" : "ok";
        m.providerCalls.inc({ provider: c.code, operation: op, outcome: kind });
        return out;
      } catch (err) {
        m.providerCalls.inc({ provider: c.code, operation: op, outcome: "error" });
        throw err;
      } finally {
        end();
      }
    };
  }
  return wrapped;
}

export function connectorFor(code: string): Connector {
  const cache = singleton("connectors", () => new Map<string, Connector>());
  let c = cache.get(code);
  if (!c) {
    if (code === "sandbox") c = new SandboxConnector();
    else {
      const cfg = providerConfigs().get(code);
      if (!cfg) throw new AppError("service_unavailable", `Provider ${code} is not configured.`);
      const real = cfg.kind === "real" ? REAL_CONNECTORS[cfg.code as keyof typeof REAL_CONNECTORS] : undefined;
      if (cfg.kind === "real" && !real) throw new AppError("service_unavailable", `Provider ${code} has no connector in this build.`);
      c = real ? real(cfg) : new HttpPspConnector(cfg);
    }
    c = instrumented(c);
    cache.set(code, c);
  }
  return c;
}
