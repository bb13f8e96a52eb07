// EBANX Payout's wire format: create, commit and retrieve, each a POST with the integration key
// in the body, answering `{type: "success", payout: {...}}` or an error object
// `{type, message, status_code, code}` (https://docs.ebanx.com/docs/payout/createPayout/payoutErrorCodes).
// A payout is created open (OP) and is only sent once committed; then PE (pending), PA (paid) or
// CA (cancelled) (https://docs.ebanx.com/docs/payout/general/notification).
//   create   https://docs.ebanx.com/docs/payout/createPayout/br/createPixPayoutBR (PIX key: target pix_key)
//            https://docs.ebanx.com/docs/payout/create-payout/mx/create-payout-mx (CLABE: payee.bank_info.bank_details)
//   commit   https://docs.ebanx.com/docs/payout/general/cancel-payout (the uid / external_reference pair of the payout operations)
//   retrieve https://docs.ebanx.com/docs/payout/general/consultPayout
import type { PayoutOutcome, PayoutRequest, PayoutStatus } from "@/lib/providers/types";
import type { Answer, Decimal } from "@/lib/providers/ebanx/transformers";
import { noUsableAnswer } from "@/lib/providers/http-exchange";
import { ebanxAmount } from "@/lib/providers/ebanx/exact-json";

type Recipient = { name?: string; email?: string; account?: string; accountType?: string; documentId?: string; documentType?: string; bankCode?: string; phone?: string };

const digits = (s: string | undefined) => (s ?? "").replace(/\D/g, "");

/** The payee object: name, email, document and document_type (CPF/CNPJ in Brazil, RFC/CURP in Mexico). */
function payeeOf(r: Recipient, country: "br" | "mx") {
  const docType = r.documentType?.trim().toUpperCase() || (country === "br" ? (digits(r.documentId).length === 14 ? "CNPJ" : "CPF") : "RFC");
  return {
    name: r.name ?? "",
    ...(r.email ? { email: r.email } : {}),
    document: country === "br" ? digits(r.documentId) : (r.documentId ?? "").trim().toUpperCase(),
    document_type: docType,
  };
}

/** POST /ws/payout/create for our two payout rails; null for a rail EBANX does not pay here. */
export function payoutCreateBody(req: PayoutRequest, integrationKey: string) {
  const r = (req.recipient ?? {}) as Recipient;
  const base = {
    integration_key: integrationKey,
    // Our payout id: EBANX keeps one payout per external_reference (HP-CM-03 otherwise), 6-40 characters (HP-CM-02).
    external_reference: req.reference,
    amount: { __decimal: ebanxAmount(req.amount, req.currency) } as Decimal,
    currency_code: req.currency,
  };
  if (req.rail === "pix" && req.currency === "BRL") {
    // target pix_key with the key itself as target_account (CPF/CNPJ digits, email, +55 phone, random key).
    const kind = r.accountType?.trim().toUpperCase();
    const key = kind === "CPF" || kind === "CNPJ" ? digits(r.account) : (r.account ?? "").trim();
    return { ...base, country: "br", target: "pix_key", target_account: key, payee: payeeOf(r, "br") };
  }
  if (req.rail === "spei" && req.currency === "MXN") {
    // Mexico: bank_info carries only bank_details, the CLABE; EBANX derives bank and account from it.
    return { ...base, country: "mx", payee: { ...payeeOf(r, "mx"), bank_info: { bank_details: digits(r.account) } } };
  }
  return null;
}

export const payoutCommitBody = (integrationKey: string, uid: string) => ({ integration_key: integrationKey, uid });
export const payoutRetrieveBody = (integrationKey: string, externalReference: string) => ({ integration_key: integrationKey, external_reference: externalReference });

/** HP-CM-03: "You already have a payout with this external_reference" — ours, sent before. */
export const PAYOUT_DUPLICATE = "HP-CM-03";
const errorOf = (body: any): string | null => (body?.type !== "success" && typeof (body?.code ?? body?.status_code) === "string" ? (body.code ?? body.status_code) : null);

export type CreateAnswer = { kind: "created"; uid: string; status: string } | { kind: "duplicate" } | Exclude<PayoutOutcome, { kind: "accepted" }>;

/**
 * The create errors that are EBANX refusing the payout, nothing created (the debit may be
 * reversed), from the payout error codes page (https://docs.ebanx.com/docs/payout/createPayout/payoutErrorCodes):
 * the request's own data, HP-CM-01 empty external_reference, HP-CM-02 its length, HP-CM-09 empty
 * amount, and the Brazilian destination's HP-BR-* (HP-BR-02 empty PIX key, HP-BR-03 invalid PIX
 * key). Every other code, HP-* or not, is unknown: on the status job's re-send path a refusal
 * reverses the debit of a payout that may already be committed, so only a code whose meaning we
 * know may do it.
 */
export const PAYOUT_REFUSALS = new Set(["HP-CM-01", "HP-CM-02", "HP-CM-09"]);
const isPayoutRefusal = (code: string) => PAYOUT_REFUSALS.has(code) || /^HP-BR-\d+$/.test(code);

/** A create answer: created, our repeat (HP-CM-03), a refusal (PAYOUT_REFUSALS) or unknown. */
export function payoutCreateAnswer(a: Answer): CreateAnswer {
  if (a.body === undefined || a.status >= 500) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  const code = errorOf(a.body);
  if (code === PAYOUT_DUPLICATE) return { kind: "duplicate" };
  if (code && isPayoutRefusal(code)) return { kind: "refused", reason: code };
  const p = a.body?.payout;
  if (a.body?.type !== "success" || typeof p?.uid !== "string") return { kind: "unknown", reason: code ? `ebanx_${code}` : "unreadable_payout" };
  return { kind: "created", uid: p.uid, status: String(p.status) };
}

/** A commit answer: success, or unknown (the status job retrieves it and commits an open one again). */
export const payoutCommitted = (a: Answer): boolean => a.body?.type === "success";

/**
 * "No payout with that reference": as for /ws/query, EBANX publishes no code for it. HP-CM-30
 * "Payout not found" is our simulator's; only that exact code counts (never a message), and it is
 * to be confirmed on EBANX's sandbox (docs/operators/providers/ebanx.md) — one integrator's code
 * reads HP-CM-30 as "not enough balance", which would make it no not-found at all.
 */
export const PAYOUT_NOT_FOUND = "HP-CM-30";
export const payoutNotFound = (body: any) => errorOf(body) === PAYOUT_NOT_FOUND;

/**
 * A retrieve answer as our payout status. OP (created, never committed) is `not_found`: the status
 * job sends it again under the same reference, which commits it. CA after a paid_date is money
 * that came back (returned); any other CA is a rejection.
 */
export function payoutStatusOf(a: Answer): PayoutStatus {
  if (a.body === undefined || a.status >= 500) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  if (payoutNotFound(a.body)) return { kind: "not_found" };
  const p = a.body?.payout;
  if (a.body?.type !== "success" || typeof p?.uid !== "string") return { kind: "unknown", reason: "unreadable_payout" };
  switch (p.status) {
    case "OP":
      return { kind: "not_found" };
    case "PE":
      return { kind: "processing", providerRef: p.uid };
    case "PA":
      return { kind: "paid", providerRef: p.uid };
    case "CA":
      return p.paid_date ? { kind: "returned", providerRef: p.uid, reason: "returned" } : { kind: "rejected", providerRef: p.uid, reason: "cancelled" };
    default:
      return { kind: "unknown", reason: `status_${String(p.status)}` };
  }
}
