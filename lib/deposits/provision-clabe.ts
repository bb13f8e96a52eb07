// Where a new account's CLABE comes from: the sandbox issues its own (valid check digit, STP
// prefix, like the virtual CLABEs real providers hand out); production asks the method's
// provider. Whatever comes back must be a valid CLABE or nothing is created (502).
import { createHash } from "node:crypto";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { randomBase62 } from "@/lib/ids";
import { clabeCheckDigit, isValidClabe } from "@/lib/rails/document-rules";
import { requestClabe } from "@/lib/providers/http-accounts";
import type { DepositMethod } from "@/lib/deposits/methods";

export type Provisioned = { clabe: string; bank: string | null; providerRef: string | null };

/** A fresh sandbox CLABE: 646 (STP) + plaza 180 + 11 digits from a random seed + check digit. */
export function newSandboxClabe(): string {
  const h = createHash("sha256").update(randomBase62(32)).digest();
  let account = "";
  for (let i = 0; account.length < 11; i++) account += (h[i]! % 10).toString();
  const first17 = `646180${account}`;
  return first17 + clabeCheckDigit(first17);
}

export function provisioningFailed(provider: string, reason: string): AppError {
  return new AppError("deposit_account_provisioning_failed", "The provider gave no usable CLABE; no account was created. Retry once; if it persists, quote the requestId.", {
    details: { provider, reason },
  });
}

export async function provisionClabe(method: DepositMethod, req: { accountId: string; endUserRef: string; name: string; email: string | null }): Promise<Provisioned> {
  if (method.provider === "sandbox") return { clabe: newSandboxClabe(), bank: null, providerRef: null };
  const r = await requestClabe(method.provider, {
    reference: req.accountId,
    endUserRef: req.endUserRef,
    beneficiary: { name: req.name, email: req.email },
    notifyUrl: `${config().APP_URL}/api/v1/providers/${method.provider}/deposits`,
  });
  if (!r.ok) throw provisioningFailed(method.provider, r.reason);
  if (typeof r.clabe !== "string" || !isValidClabe(r.clabe)) throw provisioningFailed(method.provider, typeof r.clabe === "string" ? "invalid_clabe" : "no_clabe");
  return { clabe: r.clabe, bank: r.bank, providerRef: r.providerRef };
}
