// Words for the payments pages' filters and rows: the API's values (`bank_transfer`, `BRA`,
// `pending`) as a merchant reads them. Constants only, so client components may import it.
import { PRODUCTION_RAILS, SANDBOX_RAILS, toIso3 } from "@/lib/catalog/rails";
import type { METHOD_SLUGS } from "@/lib/catalog/schema";
import type { TRANSACTION_STATUSES } from "@/lib/payments/schema";

export const STATUS_LABELS: Record<(typeof TRANSACTION_STATUSES)[number], string> = {
  pending: "Pending",
  completed: "Completed",
  failed: "Failed",
  refunded: "Refunded",
  expired: "Expired",
  chargeback: "Chargeback",
};

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
