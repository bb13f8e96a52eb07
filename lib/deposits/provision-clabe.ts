// Where a new account's CLABE comes from: the sandbox issues its own (valid check digit, STP
// prefix, like the virtual CLABEs real providers hand out); production asks the method's
// provider, with our (already committed) account id as the reference. Whatever comes back must
// be a valid CLABE or the account stays unusable (502).
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
import { isValidClabe } from "@/lib/rails/document-rules";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured } from "@/lib/providers/registry";
import type { DepositMethod } from "@/lib/deposits/methods";

export { newSandboxClabe } from "@/lib/providers/sandbox/connector";

export type Provisioned = { clabe: string; bank: string | null; providerRef: string | null };

export function provisioningFailed(provider: string, reason: string): AppError {
  return new AppError("deposit_account_provisioning_failed", "The provider gave no usable CLABE; no account is usable yet. Retry with the same endUserRef; if it persists, quote the requestId.", {
    details: { provider, reason },
  });
}

/** The provider's answer for one account: only `refused` lets a later call start over with a new id. */
export type ClabeAnswer = ({ kind: "issued" } & Provisioned) | { kind: "refused"; reason: string } | { kind: "unknown"; reason: string };

/**
 * Asks the method's provider for the CLABE of our account `accountId` (its reference there: the
 * provider de-duplicates on it, so asking again gives the same CLABE). An unusable CLABE (wrong
 * check digit, none at all) is `unknown`, not a refusal: the provider may hold an account under
 * our reference, so we ask again by that reference rather than start over with a new one.
 */
export async function askForClabe(method: DepositMethod, req: { accountId: string; endUserRef: string; name: string; email: string | null }): Promise<ClabeAnswer> {
  if (method.provider !== "sandbox" && !isProviderConfigured(method.provider)) return { kind: "refused", reason: "provider_not_configured" };
  const r = await connectorFor(method.provider).provisionClabe({
    reference: req.accountId,
    endUserRef: req.endUserRef,
    beneficiary: { name: req.name, email: req.email },
    notifyUrl: `${config().APP_URL}/api/v1/providers/${method.provider}/deposits`,
  });
  if (r.kind !== "issued") return r;
  if (typeof r.clabe !== "string" || !isValidClabe(r.clabe)) return { kind: "unknown", reason: typeof r.clabe === "string" ? "invalid_clabe" : "no_clabe" };
  return { kind: "issued", clabe: r.clabe, bank: r.bank, providerRef: r.providerRef };
}

export async function provisionClabe(method: DepositMethod, req: { accountId: string; endUserRef: string; name: string; email: string | null }): Promise<Provisioned> {
  const r = await askForClabe(method, req);
  if (r.kind !== "issued") throw provisioningFailed(method.provider, r.reason);
  return { clabe: r.clabe, bank: r.bank, providerRef: r.providerRef };
}
