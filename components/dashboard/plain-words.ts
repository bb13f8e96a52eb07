// The dashboard's words for the API's other codes a person reads: a claim's reason
// (`requested_by_customer`), a method's catalogue name ("Boleto (test)"), a file's type
// (`image/png`). Like status-words.ts, one map each, the API's word kept for a tooltip; constants
// and pure functions only, so client components may import it.
import { formatMoney } from "@/components/ui/money";

/** Why a refund or a chargeback was opened, by the API's reason codes. */
export const CLAIM_REASON_WORDS: Record<string, string> = {
  chargeback: "Not given by the bank",
  provider_chargeback: "Reported by the provider",
  pix_med: "Opened by the payer's bank (MED)",
  provider_med: "Opened by the payer's bank (MED), reported by the provider",
  provider_refund: "Refunded at the provider",
  sandbox_simulation: "Sandbox simulation",
  requested_by_customer: "Asked for by the buyer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraud",
  fraud: "Fraud",
  product_not_received: "Product not received",
  product_unacceptable: "Product not as described",
  not_recognized: "Not recognised by the buyer",
  other: "Other",
};

/**
 * A claim's reason in words: a known code from the map; an unknown code (snake_case) made a
 * sentence; a reason the merchant typed itself (a refund's note) as it was typed.
 */
export function claimReasonWord(reason: string | null | undefined): string | null {
  if (!reason) return null;
  if (CLAIM_REASON_WORDS[reason]) return CLAIM_REASON_WORDS[reason];
  if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(reason)) return reason;
  const plain = reason.replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** A reason worth naming in a claim's title: not the bare "chargeback" a bank sends without one. */
export const claimTitleReason = (reason: string | null | undefined): string | null => (reason === "chargeback" ? null : claimReasonWord(reason));

/**
 * A method's catalogue name for people: the sandbox's "(test)" suffix as a dash, so the name
 * reads "Boleto — test", never "Boleto (test) (sbx_boleto)"; the id goes in a tooltip.
 */
export function methodName(name: string): string {
  return name.replace(/\s*\(test\)$/, " — test");
}

const FILE_TYPE_WORDS: Record<string, string> = {
  "application/pdf": "PDF document",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/gif": "GIF image",
  "image/webp": "WebP image",
  "text/plain": "Text file",
  "text/csv": "CSV spreadsheet",
  "application/json": "JSON file",
};

/** A file's MIME type as people name it ("image/png" → "PNG image"). */
export function fileTypeWord(contentType: string): string {
  const known = FILE_TYPE_WORDS[contentType.toLowerCase()];
  if (known) return known;
  const [kind, sub] = contentType.toLowerCase().split("/");
  const name = (sub ?? "").replace(/^x-/, "").split(/[.+;]/)[0]!.toUpperCase();
  if (kind === "image") return `${name} image`;
  if (kind === "text") return `${name} text`;
  return name ? `${name} file` : "File";
}

/**
 * An amount a person typed into a form (a review step before money leaves), in the dashboard's
 * one money format; text that is not a plain decimal is shown as typed, with its currency.
 */
export function typedAmount(text: string, currency: string): string {
  const t = text.trim();
  return /^\d+(\.\d+)?$/.test(t) ? formatMoney(Number(t), currency) : `${t} ${currency}`;
}

/** Why a provider declined or could not take an attempt, by the unified decline codes (lib/routing/declines.ts). */
export const DECLINE_WORDS: Record<string, string> = {
  insufficient_funds: "Not enough funds",
  expired_card: "Card expired",
  do_not_honor: "Declined by the bank",
  card_blocked: "Card blocked",
  suspected_fraud: "Suspected fraud",
  invalid_document: "Document number not valid",
  invalid_account: "Account not valid",
  buyer_cancelled: "Cancelled by the buyer",
  limit_exceeded: "Over the card's limit",
  issuer_unavailable: "The bank did not answer",
  provider_timeout: "The provider did not answer in time",
  provider_error: "Error at the provider",
  provider_unavailable: "The provider was unavailable",
  provider_rate_limited: "The provider asked us to slow down",
  method_unsupported_by_provider: "The provider does not offer this method",
  amount_out_of_provider_range: "Amount outside the provider's limits",
  unmapped_decline: "Declined (reason not recognised)",
};

/** An attempt's reason in words: a unified code from the map, another code made a sentence, a provider's text as it came. */
export function declineWord(reason: string): string {
  if (DECLINE_WORDS[reason]) return DECLINE_WORDS[reason];
  return claimReasonWord(reason) ?? reason;
}

/** Why money out failed (a payout's or a withdrawal's `failureReason`): a code in words, a provider's text as it came. */
export function failureWord(reason: string): string {
  if (reason === "returned") return "Returned by the beneficiary's bank";
  return DECLINE_WORDS[reason] ?? claimReasonWord(reason) ?? reason;
}
