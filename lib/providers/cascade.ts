// The provider cascade: the rail's providers in priority order; the first that accepts with a
// hosted page or payment instructions wins. Every attempt is recorded.
import { log } from "@/lib/log";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { routableProviders } from "@/lib/catalog/list-payment-methods";
import { connectorFor } from "@/lib/providers/connectors";
import type { ChargeRequest } from "@/lib/providers/types";
import type { Environment } from "@/lib/generated/prisma/enums";

export { sandboxPaymentPage } from "@/lib/providers/sandbox/connector";

export type Attempt = { provider: string; outcome: "accepted" | "declined" | "unavailable" | "no_instructions"; reason: string | null; durationMs: number };
export type CascadeResult = { provider: string; providerRef: string; paymentFormUrl: string; instructions: Record<string, unknown> | null; attempts: Attempt[] };

export async function runCascade(environment: Environment, req: ChargeRequest, opts: { enabledForShop: boolean }): Promise<CascadeResult> {
  if (environment === "sandbox") {
    // The sandbox cascade always accepts, through the sandbox provider whose page the app serves.
    const ok = await connectorFor("sandbox").createCharge(req);
    if (ok.kind !== "accepted") throw new Error("the sandbox connector always accepts");
    return { provider: "sandbox", providerRef: ok.providerRef, paymentFormUrl: ok.paymentFormUrl!, instructions: null, attempts: [{ provider: "sandbox", outcome: "accepted", reason: null, durationMs: 0 }] };
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
  const broken = attempts.find((a) => a.outcome === "no_instructions");
  if (broken && attempts.every((a) => a.outcome !== "declined")) {
    throw new AppError("payment_instructions_unavailable", "The provider accepted the charge but returned neither a hosted page nor payment instructions. No transaction was created; retry, then report the provider.", {
      details: { provider: broken.provider, attempts },
    });
  }
  const reason = providers.length === 0 ? "no_provider_for_method_region" : attempts.every((a) => a.outcome === "declined") ? "all_providers_declined" : "providers_unavailable";
  throw new AppError("cascade_exhausted", `No provider could take this charge (${reason}).`, {
    details: { reason, attempts, paymentMethodEnabledForShop: opts.enabledForShop },
  });
}
