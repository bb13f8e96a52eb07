// The catalog: every rail the service can route, with the 4-digit ids integrators code
// against. Ids are assigned once and never reused: a retired rail keeps its id with
// `retired: true`. Sandbox test rails (API reference 4.9) carry the sbx_ ids.
import type { Currency } from "@/lib/money/currency";
import { decimalToMinor } from "@/lib/money/amount";

export type Channel = "ONLINE" | "CASH" | "CREDIT_CARD";
export type Requirement = "documentId" | "userName" | "userEmail" | "userPhone";
export type DocumentRule = "cpf_cnpj" | "rfc_curp" | "co_document" | "any";

export type Rail = {
  paymentMethodId: string;
  method: string;
  methodLabel: string;
  name: string;
  countryIso2: string;
  countryIso3: string;
  channel: Channel;
  currency: Currency;
  /** Local-currency bounds, major units as exact decimal strings. */
  minLocal: string;
  maxLocal: string;
  minTxUsd: string | null;
  maxTxUsd: string | null;
  /** The rail's own fee: provider percent (basis points) and network flat fee in USD minor units. */
  providerFeeBp: number;
  networkFeeUsdMinor: number;
  settlementDelay: string;
  requires: Requirement[];
  documentRule: DocumentRule;
  /**
   * Providers in cascade order (production): the real providers first (an operator configures
   * the ones they have an account with), then the simulated ones of development and tests (never
   * configured in production). Only configured providers route (lib/providers/registry.ts).
   */
  providers: string[];
  icon: string;
  sandbox?: boolean;
  retired?: boolean;
};

const rail = (r: Rail) => r;

export const PRODUCTION_RAILS: Rail[] = [
  rail({ paymentMethodId: "1001", method: "pix", methodLabel: "PIX", name: "PIX", countryIso2: "BR", countryIso3: "BRA", channel: "ONLINE", currency: "BRL", minLocal: "1.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 90, networkFeeUsdMinor: 0, settlementDelay: "T+1", requires: ["documentId", "userName", "userEmail"], documentRule: "cpf_cnpj", providers: ["stripe", "mercadopago", "ebanx", "pagosur", "rapidpay"], icon: "pix" }),
  rail({ paymentMethodId: "1002", method: "boleto", methodLabel: "Boleto", name: "Boleto Bancário", countryIso2: "BR", countryIso3: "BRA", channel: "CASH", currency: "BRL", minLocal: "5.00", maxLocal: "50000.00", minTxUsd: "1.00", maxTxUsd: "10000.00", providerFeeBp: 150, networkFeeUsdMinor: 35, settlementDelay: "T+3", requires: ["documentId", "userName"], documentRule: "cpf_cnpj", providers: ["stripe", "mercadopago", "ebanx", "pagosur"], icon: "boleto" }),
  rail({ paymentMethodId: "1003", method: "spei", methodLabel: "SPEI", name: "SPEI", countryIso2: "MX", countryIso3: "MEX", channel: "ONLINE", currency: "MXN", minLocal: "10.00", maxLocal: "500000.00", minTxUsd: "1.00", maxTxUsd: "25000.00", providerFeeBp: 60, networkFeeUsdMinor: 10, settlementDelay: "T+1", requires: ["documentId", "userName"], documentRule: "rfc_curp", providers: ["mercadopago", "ebanx", "pagosur", "andespay", "rapidpay"], icon: "spei" }),
  rail({ paymentMethodId: "1004", method: "oxxo", methodLabel: "OXXO", name: "OXXO", countryIso2: "MX", countryIso3: "MEX", channel: "CASH", currency: "MXN", minLocal: "10.00", maxLocal: "10000.00", minTxUsd: "2.00", maxTxUsd: "500.00", providerFeeBp: 250, networkFeeUsdMinor: 50, settlementDelay: "T+3", requires: ["userPhone", "userName", "userEmail", "documentId"], documentRule: "any", providers: ["stripe", "mercadopago", "ebanx", "andespay", "pagosur"], icon: "oxxo" }),
  rail({ paymentMethodId: "1005", method: "bank_transfer", methodLabel: "PSE", name: "PSE", countryIso2: "CO", countryIso3: "COL", channel: "ONLINE", currency: "COP", minLocal: "1000.00", maxLocal: "50000000.00", minTxUsd: "1.00", maxTxUsd: "12000.00", providerFeeBp: 120, networkFeeUsdMinor: 20, settlementDelay: "T+1", requires: ["documentId", "userName", "userEmail"], documentRule: "co_document", providers: ["mercadopago", "ebanx", "andespay", "rapidpay"], icon: "pse" }),
  rail({ paymentMethodId: "1006", method: "card", methodLabel: "Card", name: "Visa / Mastercard (Brazil)", countryIso2: "BR", countryIso3: "BRA", channel: "CREDIT_CARD", currency: "BRL", minLocal: "1.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 280, networkFeeUsdMinor: 10, settlementDelay: "T+2", requires: [], documentRule: "any", providers: ["stripe", "mercadopago", "ebanx", "rapidpay", "pagosur"], icon: "card" }),
  rail({ paymentMethodId: "1007", method: "card", methodLabel: "Card", name: "Visa / Mastercard (Mexico)", countryIso2: "MX", countryIso3: "MEX", channel: "CREDIT_CARD", currency: "MXN", minLocal: "10.00", maxLocal: "500000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 290, networkFeeUsdMinor: 10, settlementDelay: "T+2", requires: [], documentRule: "any", providers: ["stripe", "mercadopago", "ebanx", "rapidpay", "andespay"], icon: "card" }),
  rail({ paymentMethodId: "1008", method: "bank_transfer", methodLabel: "Bank transfer", name: "Transferencia bancaria (Peru)", countryIso2: "PE", countryIso3: "PER", channel: "ONLINE", currency: "PEN", minLocal: "5.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 100, networkFeeUsdMinor: 15, settlementDelay: "T+1", requires: ["documentId", "userName"], documentRule: "any", providers: ["andespay"], icon: "bank" }),
  rail({ paymentMethodId: "1009", method: "bank_transfer", methodLabel: "Bank transfer", name: "Transferencia bancaria (Chile)", countryIso2: "CL", countryIso3: "CHL", channel: "ONLINE", currency: "CLP", minLocal: "500", maxLocal: "20000000", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 100, networkFeeUsdMinor: 15, settlementDelay: "T+1", requires: ["documentId", "userName"], documentRule: "any", providers: ["andespay"], icon: "bank" }),
];

export const SANDBOX_RAILS: Rail[] = [
  rail({ paymentMethodId: "sbx_pix", method: "pix", methodLabel: "PIX", name: "PIX (test)", countryIso2: "BR", countryIso3: "BRA", channel: "ONLINE", currency: "BRL", minLocal: "1.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 90, networkFeeUsdMinor: 0, settlementDelay: "T+1", requires: ["documentId", "userName", "userEmail"], documentRule: "cpf_cnpj", providers: ["sandbox"], icon: "pix", sandbox: true }),
  rail({ paymentMethodId: "sbx_spei", method: "spei", methodLabel: "SPEI", name: "SPEI (test)", countryIso2: "MX", countryIso3: "MEX", channel: "ONLINE", currency: "MXN", minLocal: "10.00", maxLocal: "500000.00", minTxUsd: "1.00", maxTxUsd: "25000.00", providerFeeBp: 60, networkFeeUsdMinor: 10, settlementDelay: "T+1", requires: ["documentId", "userName"], documentRule: "rfc_curp", providers: ["sandbox"], icon: "spei", sandbox: true }),
  rail({ paymentMethodId: "sbx_pse", method: "bank_transfer", methodLabel: "PSE", name: "PSE / bank transfer (test)", countryIso2: "CO", countryIso3: "COL", channel: "ONLINE", currency: "COP", minLocal: "1000.00", maxLocal: "50000000.00", minTxUsd: "1.00", maxTxUsd: "12000.00", providerFeeBp: 120, networkFeeUsdMinor: 20, settlementDelay: "T+1", requires: ["documentId", "userName", "userEmail"], documentRule: "co_document", providers: ["sandbox"], icon: "pse", sandbox: true }),
  rail({ paymentMethodId: "sbx_card", method: "card", methodLabel: "Card", name: "Card (test)", countryIso2: "US", countryIso3: "USA", channel: "CREDIT_CARD", currency: "USD", minLocal: "1.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "100000.00", providerFeeBp: 290, networkFeeUsdMinor: 10, settlementDelay: "T+2", requires: [], documentRule: "any", providers: ["sandbox"], icon: "card", sandbox: true }),
  rail({ paymentMethodId: "sbx_cash", method: "oxxo", methodLabel: "Cash / OXXO", name: "OXXO (test)", countryIso2: "MX", countryIso3: "MEX", channel: "CASH", currency: "MXN", minLocal: "10.00", maxLocal: "10000.00", minTxUsd: "2.00", maxTxUsd: "500.00", providerFeeBp: 250, networkFeeUsdMinor: 50, settlementDelay: "T+3", requires: ["userPhone", "userName", "userEmail", "documentId"], documentRule: "any", providers: ["sandbox"], icon: "cash", sandbox: true }),
  // Brazil's other test rails (issue 24), so "pay another way" after a failed PIX reaches a
  // different method. The card asks for a CPF/CNPJ like Brazilian acquirers do, which keeps the
  // Brazilian selector's one document rule (the hosted checkout sends a document with every method).
  rail({ paymentMethodId: "sbx_boleto", method: "boleto", methodLabel: "Boleto", name: "Boleto (test)", countryIso2: "BR", countryIso3: "BRA", channel: "CASH", currency: "BRL", minLocal: "5.00", maxLocal: "50000.00", minTxUsd: "1.00", maxTxUsd: "10000.00", providerFeeBp: 150, networkFeeUsdMinor: 35, settlementDelay: "T+3", requires: ["documentId", "userName"], documentRule: "cpf_cnpj", providers: ["sandbox"], icon: "boleto", sandbox: true }),
  rail({ paymentMethodId: "sbx_br_card", method: "card", methodLabel: "Card", name: "Card, Brazil (test)", countryIso2: "BR", countryIso3: "BRA", channel: "CREDIT_CARD", currency: "BRL", minLocal: "1.00", maxLocal: "100000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 280, networkFeeUsdMinor: 10, settlementDelay: "T+2", requires: [], documentRule: "cpf_cnpj", providers: ["sandbox"], icon: "card", sandbox: true }),
  // Mexico's test card (issues 41 and 42), so a tester in Mexico pays by card in MXN as in
  // production (1007: no document asked; the hosted checkout's RFC/CURP of SPEI passes its "any"
  // rule), and the sandbox shows meses sin intereses from day one.
  rail({ paymentMethodId: "sbx_mx_card", method: "card", methodLabel: "Card", name: "Card, Mexico (test)", countryIso2: "MX", countryIso3: "MEX", channel: "CREDIT_CARD", currency: "MXN", minLocal: "10.00", maxLocal: "500000.00", minTxUsd: "1.00", maxTxUsd: "20000.00", providerFeeBp: 290, networkFeeUsdMinor: 10, settlementDelay: "T+2", requires: [], documentRule: "any", providers: ["sandbox"], icon: "card", sandbox: true }),
];

/** A rail's bounds in minor units: local currency, and USD per transaction. */
export function railLimits(rail: Rail, maxHeadlineUsd: bigint) {
  return {
    minLocal: decimalToMinor(rail.minLocal, rail.currency),
    maxLocal: decimalToMinor(rail.maxLocal, rail.currency),
    minUsd: rail.minTxUsd ? decimalToMinor(rail.minTxUsd, "USD") : 1n,
    maxUsd: rail.maxTxUsd ? decimalToMinor(rail.maxTxUsd, "USD") : maxHeadlineUsd,
  };
}

const byId = new Map([...PRODUCTION_RAILS, ...SANDBOX_RAILS].map((r) => [r.paymentMethodId, r]));
export function railById(id: string): Rail | undefined {
  return byId.get(id);
}

const ISO2_TO_3: Record<string, string> = { BR: "BRA", MX: "MEX", CO: "COL", PE: "PER", CL: "CHL", AR: "ARG", US: "USA", EC: "ECU", UY: "URY", PY: "PRY", BO: "BOL", GT: "GTM", CR: "CRI", PA: "PAN", DO: "DOM", SV: "SLV", HN: "HND", NI: "NIC", VE: "VEN" };
const ISO3 = new Set(Object.values(ISO2_TO_3));

/** ISO-2 or ISO-3 (any case) -> ISO-3; null when unknown. */
export function toIso3(country: string): string | null {
  const c = country.trim().toUpperCase();
  if (c.length === 2) return ISO2_TO_3[c] ?? null;
  if (c.length === 3 && ISO3.has(c)) return c;
  return null;
}
