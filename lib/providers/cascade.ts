// The provider cascade: the rail's providers in priority order; the first that accepts with a
// hosted page or payment instructions wins. Every attempt is recorded.
import { log } from "@/lib/log";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { routableProviders } from "@/lib/catalog/list-payment-methods";
import { connectorFor } from "@/lib/providers/connectors";
import type { ChargeRequest } from "@/lib/providers/types";
import type { Environment } from "@/lib/generated/prisma/enums";
import { failedAttempt, type SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";

export { sandboxPaymentPage } from "@/lib/providers/sandbox/connector";

export type Attempt = { provider: string; outcome: "accepted" | "declined" | "unavailable" | "no_instructions"; reason: string | null; durationMs: number };
export type CascadeResult = { provider: string; providerRef: string; paymentFormUrl: string; instructions: Record<string, unknown> | null; attempts: Attempt[] };

export async function runCascade(environment: Environment, req: ChargeRequest, opts: { enabledForShop: boolean; behaviour?: SandboxBehaviour }): Promise<CascadeResult> {
  if (environment === "sandbox") {
    // The sandbox cascade accepts through the sandbox provider whose page the app serves, after
    // the failing providers a Sandbox-Provider-Behaviour header scripts (lib/payments/sandbox-behaviour.ts).
    const attempts: Attempt[] = [];
    for (const [i, step] of (opts.behaviour?.steps ?? ["accept"]).entries()) {
      if (step !== "accept") {
        attempts.push(failedAttempt(step, i));
        continue;
      }
      const ok = await connectorFor("sandbox").createCharge(req);
      if (ok.kind !== "accepted") throw new Error("the sandbox connector always accepts");
      attempts.push({ provider: "sandbox", outcome: "accepted", reason: null, durationMs: 0 });
      return { provider: "sandbox", providerRef: ok.providerRef, paymentFormUrl: ok.paymentFormUrl!, instructions: null, attempts };
    }
    return exhausted(attempts, attempts.length, opts.enabledForShop);
  }
  const providers = routableProviders(req.rail, environment);
  const attempts: Attempt[] = [];
  for (const code of providers) {
    const connector = connectorFor(code);
    const started = performance.now();
    // An exception is our own failure: its text goes to the log, never into the attempts a
    // merchant reads (error details, the transaction's record).
    const outcome = await connector.createCharge(req).catch((err: unknown) => {
      log.error({ provider: code, transaction: req.transactionId, err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, "provider connector threw");
      return { kind: "unavailable" as const, reason: "connector_error" };
    });
    const durationMs = Math.round(performance.now() - started);
    if (outcome.kind === "accepted") {
      const page = outcome.paymentFormUrl ?? (outcome.instructions ? `${config().APP_URL}/pay/${code}/${req.transactionId}` : null);
      if (page) {
        attempts.push({ provider: code, outcome: "accepted", reason: null, durationMs });
        return { provider: code, providerRef: outcome.providerRef, paymentFormUrl: page, instructions: outcome.instructions, attempts };
      }
      attempts.push({ provider: code, outcome: "no_instructions", reason: "accepted without a hosted page or instructions", durationMs });
    } else {
      attempts.push({ provider: code, outcome: outcome.kind, reason: outcome.reason, durationMs });
    }
  }
  return exhausted(attempts, providers.length, opts.enabledForShop);
}

function exhausted(attempts: Attempt[], providerCount: number, enabledForShop: boolean): never {
  const broken = attempts.find((a) => a.outcome === "no_instructions");
  if (broken && attempts.every((a) => a.outcome !== "declined")) {
    throw new AppError("payment_instructions_unavailable", "The provider accepted the charge but returned neither a hosted page nor payment instructions. No transaction was created; retry, then report the provider.", {
      details: { provider: broken.provider, attempts },
    });
  }
  const reason = providerCount === 0 ? "no_provider_for_method_region" : attempts.every((a) => a.outcome === "declined") ? "all_providers_declined" : "providers_unavailable";
  throw new AppError("cascade_exhausted", `No provider could take this charge (${reason}).`, {
    details: { reason, attempts, paymentMethodEnabledForShop: enabledForShop },
  });
}
