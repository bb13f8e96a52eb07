// The payout catalog: rails merchants pay beneficiaries on, each in its local currency. A
// production method dispatches through its first configured provider; with none configured
// the simulated driver completes payouts at once (API reference 3.3). The sandbox prepends
// synthetic sbx_po_* rails that never touch the balance or a provider, and also accepts the
// production methods (debited, never dispatched, driven by the simulate endpoint).
import { config } from "@/lib/platform/config";
import { isProviderConfigured } from "@/lib/providers/registry";
import type { Environment } from "@/lib/generated/prisma/enums";

export type PayoutRail = "spei" | "pix" | "bank_transfer";

export type PayoutMethod = {
  id: string;
  name: string;
  rail: PayoutRail;
  country: string;
  currency: "MXN" | "BRL" | "COP" | "PEN";
  /** Indicative bounds per payout, exact decimal strings (not enforced: 8 Limits). */
  minUsd: string;
  maxUsd: string;
  providers: string[];
  icon: string;
  synthetic?: boolean;
};

export const PRODUCTION_PAYOUT_METHODS: PayoutMethod[] = [
  { id: "po_mx_spei", name: "SPEI", rail: "spei", country: "MEX", currency: "MXN", minUsd: "1.00", maxUsd: "50000.00", providers: ["ebanx", "pagosur", "andespay"], icon: "spei" },
  { id: "po_br_pix", name: "PIX", rail: "pix", country: "BRA", currency: "BRL", minUsd: "1.00", maxUsd: "20000.00", providers: ["ebanx", "pagosur", "rapidpay"], icon: "pix" },
  { id: "po_co_bank", name: "Transferencia bancaria (Colombia)", rail: "bank_transfer", country: "COL", currency: "COP", minUsd: "5.00", maxUsd: "10000.00", providers: ["andespay"], icon: "bank" },
  { id: "po_pe_bank", name: "Transferencia bancaria (Peru)", rail: "bank_transfer", country: "PER", currency: "PEN", minUsd: "5.00", maxUsd: "10000.00", providers: ["andespay"], icon: "bank" },
];

export const SANDBOX_PAYOUT_METHODS: PayoutMethod[] = [
  { id: "sbx_po_mx_spei", name: "SPEI (test)", rail: "spei", country: "MEX", currency: "MXN", minUsd: "1.00", maxUsd: "50000.00", providers: [], icon: "spei", synthetic: true },
  { id: "sbx_po_br_pix", name: "PIX (test)", rail: "pix", country: "BRA", currency: "BRL", minUsd: "1.00", maxUsd: "20000.00", providers: [], icon: "pix", synthetic: true },
  { id: "sbx_po_co_bank", name: "Bank transfer Colombia (test)", rail: "bank_transfer", country: "COL", currency: "COP", minUsd: "5.00", maxUsd: "10000.00", providers: [], icon: "bank", synthetic: true },
  { id: "sbx_po_pe_bank", name: "Bank transfer Peru (test)", rail: "bank_transfer", country: "PER", currency: "PEN", minUsd: "5.00", maxUsd: "10000.00", providers: [], icon: "bank", synthetic: true },
];

export function payoutMethods(environment: Environment): PayoutMethod[] {
  if (environment === "sandbox") return [...SANDBOX_PAYOUT_METHODS, ...PRODUCTION_PAYOUT_METHODS];
  // The simulated driver serves development deployments only (decisions.md "Payouts"): in
  // production a live method without a configured provider is not offered, so sending to it is
  // 422 payout_method_unavailable.
  if (config().APP_ENV === "production") return PRODUCTION_PAYOUT_METHODS.filter((m) => m.providers.some(isProviderConfigured));
  return PRODUCTION_PAYOUT_METHODS;
}

export function payoutMethodById(environment: Environment, id: string): PayoutMethod | undefined {
  return payoutMethods(environment).find((m) => m.id === id);
}

/** Who carries a payout: `sandbox` (never dispatched), a configured provider, or `simulated`. */
export function payoutDriver(environment: Environment, m: PayoutMethod): string {
  if (environment === "sandbox") return "sandbox";
  return m.providers.find(isProviderConfigured) ?? "simulated";
}

export function payoutIconUrl(m: PayoutMethod): string {
  return `${config().APP_URL}/icons/rails/${m.icon}.svg`;
}

/** Currencies the payout environment can hold: USD plus every method's currency. */
export function payoutCurrencies(environment: Environment): string[] {
  return ["USD", ...new Set(payoutMethods(environment).map((m) => m.currency))];
}
