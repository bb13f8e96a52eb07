// Payment search (`q` of GET /payments and the dashboard's search box). One box, and the query
// decides which keys it is compared with:
//   - order id (merchantOrderId): prefix, case-insensitive — always;
//   - customer e-mail: prefix, case-insensitive (a whole address is its own prefix) — when the
//     query has no spaces and is not a payment id;
//   - customer name: every word of the query starts a word of the name, in any order, case and
//     Latin accents ignored ("jose per" finds "José Pérez") — when the query has a word of 2+
//     letters and no digit or "@" (one-letter words are left out);
//   - payment id: exact — when the query looks like one (tx_…);
//   - amount: "499", "499.00" or "499,5" equals the amount the payment was asked in (inputAmount
//     in its currency, else the USD amount) — when the query is a number.
// A payment matches when any applicable key matches. Each key is a normalized column written with
// the row (searchKeys) and indexed (schema.prisma): Prisma can only declare indexes on columns,
// not on lower(...), and `npm run db:drift` allows no index the schema cannot express.
import { CURRENCY_EXPONENTS, type Currency } from "@/lib/money/currency";

/** Names are matched by words of at most this many characters (longer query words are cut). */
export const NAME_TERM_MAX = 20;
const NAME_TERM_MIN = 2;

/** Lower case, Latin accents folded (NFKD minus marks), split on anything that is not a-z0-9. */
export function nameWords(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The name's index terms: every 2-20 character prefix of every word (edge n-grams). */
export function nameTerms(name: string | null): string[] {
  if (!name) return [];
  const terms = new Set<string>();
  for (const w of nameWords(name)) for (let n = NAME_TERM_MIN; n <= Math.min(w.length, NAME_TERM_MAX); n++) terms.add(w.slice(0, n));
  return [...terms].sort();
}

/** Minor units of `currency` -> hundredths of its major unit (CLP 499 -> 49900, MXN 499.00 -> 49900). */
function hundredths(minor: bigint, currency: string): bigint {
  const exp = CURRENCY_EXPONENTS[currency as Currency] ?? 2;
  return exp <= 2 ? minor * 10n ** BigInt(2 - exp) : minor / 10n ** BigInt(exp - 2);
}

const utf8 = (s: string) => Buffer.from(s, "utf8");

type Keyed = { merchantOrderId: string | null; userEmail: string | null; userName: string | null; inputAmount: bigint | null; inputCurrency: string | null; amountUsd: bigint };

/** The search columns of a payment row; every writer of `transactions` stores them. */
export function searchKeys(t: Keyed) {
  return {
    searchOrderKey: t.merchantOrderId === null ? null : utf8(t.merchantOrderId.toLowerCase()),
    searchEmailKey: t.userEmail === null ? null : utf8(t.userEmail.trim().toLowerCase()),
    searchNameTerms: nameTerms(t.userName),
    searchAmount: t.inputAmount !== null && t.inputCurrency ? hundredths(t.inputAmount, t.inputCurrency) : t.amountUsd,
  };
}

export type SearchPlan = {
  /** The lower-cased query's UTF-8 bytes and the first byte string past every one they prefix. */
  prefix: { from: Buffer; to: Buffer };
  email: boolean;
  nameTerms: string[];
  amount: bigint | null;
  paymentId: string | null;
};

const AMOUNT = /^(\d{1,13})(?:[.,](\d{1,2}))?$/;
const PAYMENT_ID = /^tx_[A-Za-z0-9]{4,60}$/;

/** The smallest byte string greater than every byte string that starts with `b` (UTF-8 has no 0xff byte; handled anyway). */
export function prefixEnd(b: Buffer): Buffer {
  let n = b.length;
  while (n > 0 && b[n - 1] === 0xff) n--;
  if (n === 0) return Buffer.from([0xff, 0xff, 0xff, 0xff]);
  const end = Buffer.from(b.subarray(0, n));
  end[n - 1]! += 1;
  return end;
}

/** What a query is compared with; null for an empty query. */
export function planSearch(q: string | undefined): SearchPlan | null {
  const text = (q ?? "").trim();
  if (text === "") return null;
  const lower = text.toLowerCase();
  const amount = AMOUNT.exec(text);
  const words = nameWords(text).map((w) => w.slice(0, NAME_TERM_MAX));
  const paymentId = PAYMENT_ID.test(text) ? text : null;
  // Names have no digits and no "@": such a query is an order id, an e-mail, an amount or an id.
  const nameApplies = !/[@\d]/.test(text) && words.some((w) => w.length >= NAME_TERM_MIN);
  return {
    prefix: { from: utf8(lower), to: prefixEnd(utf8(lower)) },
    email: !/\s/.test(text) && paymentId === null,
    // One-letter words carry no index term: they are left out of the match ("ana m" = "ana").
    nameTerms: nameApplies ? [...new Set(words.filter((w) => w.length >= NAME_TERM_MIN))] : [],
    amount: amount ? BigInt(amount[1]!) * 100n + BigInt((amount[2] ?? "").padEnd(2, "0")) : null,
    paymentId,
  };
}

/**
 * The plan as one SQL condition over `transactions` (ORed keys), numbering its parameters from
 * `first`. Every branch is an index condition (byte ranges and equality on the (merchant,
 * environment, key) btrees, GIN containment, the primary key), so Postgres can answer with a
 * BitmapOr of index scans.
 */
export function searchCondition(plan: SearchPlan, first: number): { clause: string; values: unknown[] } {
  const values: unknown[] = [plan.prefix.from, plan.prefix.to];
  const from = `$${first}`;
  const to = `$${first + 1}`;
  const branches = [`(search_order_key >= ${from}::bytea AND search_order_key < ${to}::bytea)`];
  if (plan.email) branches.push(`(search_email_key >= ${from}::bytea AND search_email_key < ${to}::bytea)`);
  if (plan.nameTerms.length > 0) {
    values.push(plan.nameTerms);
    branches.push(`search_name_terms @> $${first + values.length - 1}::text[]`);
  }
  if (plan.amount !== null) {
    // As text: the list keys its count cache by JSON of the values, which has no BigInt.
    values.push(plan.amount.toString());
    branches.push(`search_amount = $${first + values.length - 1}::bigint`);
  }
  if (plan.paymentId !== null) {
    values.push(plan.paymentId);
    branches.push(`id = $${first + values.length - 1}`);
  }
  return { clause: `(${branches.join(" OR ")})`, values };
}
