// Where a new account's CLABE comes from: the sandbox issues its own (valid check digit, STP
// prefix, like the virtual CLABEs real providers hand out); production asks the method's
// provider. Whatever comes back must be a valid CLABE or nothing is created (502).
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { isValidClabe } from "@/lib/rails/document-rules";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured } from "@/lib/providers/registry";
import type { DepositMethod } from "@/lib/deposits/methods";

export { newSandboxClabe } from "@/lib/providers/sandbox/connector";

export type Provisioned = { clabe: string; bank: string | null; providerRef: string | null };

export function provisioningFailed(provider: string, reason: string): AppError {
  return new AppError("deposit_account_provisioning_failed", "The provider gave no usable CLABE; no account was created. Retry once; if it persists, quote the requestId.", {
    details: { provider, reason },
  });
}

export async function provisionClabe(method: DepositMethod, req: { accountId: string; endUserRef: string; name: string; email: string | null }): Promise<Provisioned> {
  // The provider de-duplicates on our account id: a retried request gets the same CLABE back.
  if (method.provider !== "sandbox" && !isProviderConfigured(method.provider)) throw provisioningFailed(method.provider, "provider_not_configured");
  const r = await connectorFor(method.provider).provisionClabe({
    reference: req.accountId,
    endUserRef: req.endUserRef,
    beneficiary: { name: req.name, email: req.email },
    notifyUrl: `${config().APP_URL}/api/v1/providers/${method.provider}/deposits`,
  });
  if (r.kind !== "issued") throw provisioningFailed(method.provider, r.reason);
  if (typeof r.clabe !== "string" || !isValidClabe(r.clabe)) throw provisioningFailed(method.provider, typeof r.clabe === "string" ? "invalid_clabe" : "no_clabe");
  return { clabe: r.clabe, bank: r.bank, providerRef: r.providerRef };
}
