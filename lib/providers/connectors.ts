// Connector instances by provider code: the sandbox's own, or the HTTP connector of a
// configured provider.
import { AppError } from "@/lib/errors";
import { providerConfigs } from "@/lib/providers/registry";
import { HttpPspConnector } from "@/lib/providers/http-psp/connector";
import { SandboxConnector } from "@/lib/providers/sandbox/connector";
import { singleton } from "@/lib/singleton";
import type { Connector } from "@/lib/providers/types";

export function connectorFor(code: string): Connector {
  const cache = singleton("connectors", () => new Map<string, Connector>());
  let c = cache.get(code);
  if (!c) {
    if (code === "sandbox") c = new SandboxConnector();
    else {
      const cfg = providerConfigs().get(code);
      if (!cfg) throw new AppError("service_unavailable", `Provider ${code} is not configured.`);
      c = new HttpPspConnector(cfg);
    }
    cache.set(code, c);
  }
  return c;
}
