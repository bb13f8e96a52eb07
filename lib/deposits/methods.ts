// Deposit methods: the networks a shop can hand its end users a fixed account on. Production
// methods are CLABEs issued by an upstream provider (PROVIDER_<CODE>_URL/_SECRET); the sandbox
// issues its own. Which ones a shop offers: the defaults below, overridden per shop by the
// operator (`npm run shop:deposit-methods`). Ids are their own namespace, never reused.
import { db } from "@/lib/platform/db";
import { isProviderConfigured } from "@/lib/providers/registry";
import type { Environment } from "@/lib/generated/prisma/enums";

/** Fields a method needs on creation beyond `endUserRef` and `name`. */
export type DepositRequirement = "email" | "phone" | "documentId";

export type DepositMethod = {
  depositMethodId: string;
  method: "spei";
  name: string;
  countryIso3: string;
  currency: "MXN";
  /** Who issues the CLABEs: an upstream provider code, or the sandbox itself. */
  provider: string;
  requires: DepositRequirement[];
  /** The pay-in rail whose pricing and settlement a credited deposit follows. */
  payinRailId: string;
  environment: Environment;
  enabledByDefault: boolean;
};

export const DEPOSIT_METHODS: DepositMethod[] = [
  { depositMethodId: "sbx_dm_spei", method: "spei", name: "SPEI (test)", countryIso3: "MEX", currency: "MXN", provider: "sandbox", requires: ["email"], payinRailId: "sbx_spei", environment: "sandbox", enabledByDefault: true },
  { depositMethodId: "sbx_dm_spei_kyc", method: "spei", name: "SPEI with KYC (test)", countryIso3: "MEX", currency: "MXN", provider: "sandbox", requires: ["email", "phone", "documentId"], payinRailId: "sbx_spei", environment: "sandbox", enabledByDefault: false },
  { depositMethodId: "dm_spei_pagosur", method: "spei", name: "SPEI (Pagosur)", countryIso3: "MEX", currency: "MXN", provider: "pagosur", requires: ["email"], payinRailId: "1003", environment: "production", enabledByDefault: false },
  { depositMethodId: "dm_spei_andespay", method: "spei", name: "SPEI (Andespay)", countryIso3: "MEX", currency: "MXN", provider: "andespay", requires: ["email", "phone"], payinRailId: "1003", environment: "production", enabledByDefault: false },
];

export function depositMethodById(id: string): DepositMethod | undefined {
  return DEPOSIT_METHODS.find((m) => m.depositMethodId === id);
}

/** The methods a shop offers now in an environment: enabled, and (production) with its provider configured. */
export async function shopDepositMethods(shopId: string, environment: Environment): Promise<DepositMethod[]> {
  const overrides = new Map((await db().shopDepositMethod.findMany({ where: { shopId }, select: { depositMethodId: true, enabled: true } })).map((r) => [r.depositMethodId, r.enabled]));
  return DEPOSIT_METHODS.filter(
    (m) => m.environment === environment && (overrides.get(m.depositMethodId) ?? m.enabledByDefault) && (m.provider === "sandbox" || isProviderConfigured(m.provider)),
  );
}

export function presentDepositMethod(m: DepositMethod) {
  return { depositMethodId: m.depositMethodId, method: m.method, name: m.name, country: m.countryIso3, currency: m.currency };
}
