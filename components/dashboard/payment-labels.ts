// Words for the payments pages' filters and rows: the API's values (`bank_transfer`, `BRA`,
// `pending`) as a merchant reads them. Constants only, so client components may import it.
import { PRODUCTION_RAILS, SANDBOX_RAILS, toIso3 } from "@/lib/rails/rails";
export { providerName } from "@/lib/providers/names";
import type { METHOD_SLUGS } from "@/lib/catalog/schema";
import type { TRANSACTION_STATUSES } from "@/lib/payments/schema";
import type { Amount, Happening } from "@/lib/dashboard/payment-timeline";
import { formatLocalMoney } from "@/components/ui/money";
import { STATUS_WORDS, claimStatusOf, statusWord } from "@/components/dashboard/status-words";

/** The payments filter's statuses (the API's), in the dashboard's words. */
export const STATUS_LABELS: Record<(typeof TRANSACTION_STATUSES)[number], string> = STATUS_WORDS.payment;

export const METHOD_LABELS: Record<(typeof METHOD_SLUGS)[number], string> = {
  card: "Card",
  debit: "Debit card",
  bank_transfer: "Bank transfer",
  wire: "Wire transfer",
  spei: "SPEI",
  pix: "PIX",
  oxxo: "OXXO",
  boleto: "Boleto",
  voucher: "Cash voucher",
  online_payment: "Online payment",
  applepay: "Apple Pay",
  googlepay: "Google Pay",
  crypto: "Crypto",
};

/** The rails a merchant may filter by in an environment (the sandbox also charges production ids). */
export function railsFor(environment: string) {
  return environment === "sandbox" ? [...SANDBOX_RAILS, ...PRODUCTION_RAILS] : PRODUCTION_RAILS.filter((r) => !r.retired);
}

const ISO3_TO_2 = new Map([...PRODUCTION_RAILS, ...SANDBOX_RAILS].map((r) => [r.countryIso3, r.countryIso2]));
// English names from the runtime's own data (server and browser agree), not a hand-kept list.
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The countries payments can be in (those of the catalog's rails), by name. */
export const PAYMENT_COUNTRIES = [...ISO3_TO_2.entries()].map(([iso3, iso2]) => ({ iso3, name: regionNames.of(iso2) ?? iso3 })).sort((a, b) => a.name.localeCompare(b.name));

/** "BRA" (or "BR") -> "Brazil"; an unknown code as it is. */
export function countryName(code: string): string {
  const iso3 = toIso3(code);
  const iso2 = iso3 ? ISO3_TO_2.get(iso3) : undefined;
  return iso2 ? (regionNames.of(iso2) ?? code) : code;
}

const shorten = (v: string) => (v.length > 12 ? `${v.slice(0, 12)}…` : v);

/** A filter the page could not use, in plain words (never the API's `param`/zod wording). */
export function filterProblem(param: string | undefined, params: Record<string, string>): { field?: string; message: string } {
  switch (param) {
    case "country":
      return { field: "country", message: `We don't know the country “${shorten(params.country ?? "")}”. Pick one from the list.` };
    case "status":
      return { field: "status", message: "That isn't a payment status. Pick one from the list." };
    case "method":
      return { field: "method", message: "That isn't a payment method type. Pick one from the list." };
    case "paymentMethodId":
      return { field: "paymentMethodId", message: "That payment method id is too long to be one of ours." };
    case "q":
      return { field: "q", message: "The search is too long: use at most 200 characters." };
    case "merchantOrderId":
      return { field: "q", message: "That order id is too long: order ids have at most 120 characters." };
    case "limit":
    case "offset":
    case "startingAfter":
    case "endingBefore":
      return { message: "That page of results doesn't exist. Start again from the first page." };
    default:
      return { message: "These filters can't be used together. Clear them and try again." };
  }
}

/** A refund, a chargeback or a PIX MED claim (the API calls them all claims: `user_dispute` is a refund). */
export const claimKindLabel = (kind: string | null | undefined) => (kind === "chargeback" ? "Chargeback" : kind === "pix_med" ? "PIX MED claim" : "Refund");

export const CLAIM_KIND_FILTER_LABELS: Record<string, string> = { user_dispute: "Refunds", chargeback: "Chargebacks", pix_med: "PIX MED claims" };

/** The claims filter's statuses (either kind). */
export const CLAIM_STATUS_LABELS: Record<string, string> = STATUS_WORDS.claim;

/** A claim's status in words, per kind: a resolved refund has been paid back. */
export const claimStatusLabel = (status: string, kind?: string | null): string => statusWord(claimStatusOf(kind), status);

/** What an event says happened, in words; `kind` tells a refund's claim events from a chargeback's. */
export function eventLabel(type: string, kind?: string | null): string {
  const refund = kind !== "chargeback" && kind !== "pix_med";
  const dispute = kind === "pix_med" ? "PIX MED claim" : "Chargeback";
  switch (type) {
    case "payment.completed":
      return "Payment completed";
    case "payment.failed":
      return "Payment failed";
    case "payment.refunded":
      return "Payment refunded";
    case "payment.captured":
      return "Payment captured";
    case "chargeback.created":
      return "Chargeback opened";
    case "claim.opened":
      return refund ? "Refund started" : `${dispute} opened`;
    case "claim.resolved":
      return refund ? "Refund completed" : `${dispute} decided`;
    default: {
      const words = type.replace(/[._]/g, " ");
      return words.charAt(0).toUpperCase() + words.slice(1);
    }
  }
}

const money = (a: Amount) => formatLocalMoney(a.amount, a.currency);

/** A line of a payment's timeline (lib/dashboard/payment-timeline.ts) in words that say how much. */
export function timelineLine(h: Happening): string {
  switch (h.what) {
    case "paid":
      return h.after ? `Paid ${money(h.amount)} after it had ${h.after === "expired" ? "expired" : "failed"}` : `Paid ${money(h.amount)}`;
    case "failed":
      return "Payment failed";
    case "expired":
      return "Payment expired";
    case "refunded":
      if (h.full && h.of && h.amount.amount >= h.of.amount) return `Refunded in full: ${money(h.amount)}`;
      if (h.full) return `Refunded ${money(h.amount)}: now refunded in full`;
      return h.of ? `Refunded ${money(h.amount)} of ${money(h.of)}` : `Refunded ${money(h.amount)}`;
    case "refund_started":
      return `Refund of ${money(h.amount)} started`;
    case "refund_refused":
      return `Refund of ${money(h.amount)} refused`;
    case "chargeback_opened":
      return `Chargeback opened for ${money(h.amount)}`;
    case "chargeback_won":
      return `Chargeback won: ${money(h.amount)} back in your balance`;
    case "chargeback_lost":
      return `Chargeback lost: ${money(h.amount)} returned to the buyer`;
    case "med_opened":
      return `PIX MED claim opened: ${money(h.amount)} blocked`;
    case "med_released":
      return `PIX MED claim won: ${money(h.amount)} back in your balance`;
    case "med_returned":
      return `PIX MED claim lost: ${money(h.amount)} returned to the payer`;
    case "other":
      return eventLabel(h.type, h.kind);
  }
}

/** "T+1" -> "1 day after the payment"; anything else as it is. */
export function settlementDelayLabel(delay: string | null | undefined): string {
  const m = /^T\+(\d+)$/.exec(delay ?? "");
  if (!m) return delay ?? "—";
  const n = Number(m[1]);
  return n === 0 ? "The day of the payment" : `${n} day${n === 1 ? "" : "s"} after the payment`;
}

export const ROLE_LABELS: Record<string, string> = { owner: "Owner", developer: "Developer", viewer: "Viewer" };
