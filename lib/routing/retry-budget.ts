// Retry budgets (issue 45): a soft decline of a card is retried at another provider (the cascade)
// only within the card networks' reattempt limits, counted per card over every instance (rows of
// card_reattempts in PostgreSQL, reserved under a per-card advisory lock, so two instances
// cascading the same card at once cannot both take the last one).
//
// The limits, as the networks publish them (their rule books are not public; these are the
// acquirers' and processors' published summaries):
// - Visa, "Excessive Reattempts" (Visa Integrity Fee program, from April 2021): no reattempt after
//   a category 1 decline (issuer will never approve), at most 15 reattempts of a declined
//   transaction on the same card in 30 days for categories 2-4; each further one is charged.
//   https://support.stripe.com/questions/payment-blocked-due-to-excessive-retries ("more than 15
//   retries of a single payment over 30 calendar days"), https://www.payway.com/visa-excessive-reattempts-rule-fees,
//   https://support.nets.eu/article/visa-fines-on-attempts-to-complete-already-declined-transactions
// - Mastercard, "Excessive Authorization Attempts" (Transaction Processing Excellence): at most 10
//   declined attempts on the same card in a rolling 24 hours, and 35 on the same card, merchant and
//   amount in 30 days; Merchant Advice Codes 03 and 21 say never retry.
//   https://retries.com/guides/transaction-processing-excellence, https://developers.tabapay.com/docs/mastercard-1
// The card's brand is not known here (the buyer types the card on the provider's page), so both
// apply: at most 10 reattempts per card in 24 hours and 15 in 30 days (Mastercard's 35 in 30 days
// is looser than Visa's 15). The never-retry answers (category 1, MAC 03/21) are hard declines in
// the decline table already (`stop`: lost or stolen card, closed account, fraud…): never cascaded.
//
// Which card: no card number or provider token reaches this service before the cascade (the card
// is typed on the provider's hosted page), so the card is identified by what the payment carries
// about its holder: the document (CPF, RFC…) when given, else the e-mail, keyed with an HMAC so
// the table holds no identity. It counts per buyer, not per card: a buyer with two cards shares
// one budget, which is stricter than the networks' rule, never looser. A card payment with
// neither cannot be counted: it cascades as before, uncounted (the one gap; a provider's card
// fingerprint read back from the charge would close it).
//
// The count is per merchant: the networks count reattempts per card and acceptor, and each
// merchant is its own acceptor to the issuer (its name and category on the authorization). Each
// row keeps the transaction and provider it was spent for.
import { createHmac } from "node:crypto";
import { db } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { Rail } from "@/lib/rails/rails";

const HOUR = 3_600_000;
/** The stricter of Visa's and Mastercard's published limits, per card (see above). */
export const CARD_REATTEMPT_LIMITS = [
  { max: 10, windowMs: 24 * HOUR, network: "Mastercard (Excessive Authorization Attempts: 10 declined attempts per card in 24 hours)" },
  { max: 15, windowMs: 30 * 24 * HOUR, network: "Visa (Excessive Reattempts: 15 reattempts per card in 30 days)" },
] as const;
const LONGEST_MS = Math.max(...CARD_REATTEMPT_LIMITS.map((l) => l.windowMs));

/** Whether the rail is a card rail, whose cascade reattempts the networks count. */
export const isCardRail = (rail: Pick<Rail, "method">) => rail.method === "card";

/** The card's key: an HMAC of the holder's document (normalised), else e-mail (lowercased); null when the payment carries neither. */
export function cardKeyOf(buyer: { documentId?: string; email?: string }): string | null {
  const doc = buyer.documentId?.replace(/[.\-/\s]/g, "").toUpperCase();
  const email = buyer.email?.trim().toLowerCase();
  const identity = doc ? `doc:${doc}` : email ? `email:${email}` : null;
  if (!identity) return null;
  return createHmac("sha256", config().ENCRYPTION_KEY).update(`card-reattempt|${identity}`).digest("hex");
}

export type Reservation = { allowed: true } | { allowed: false; max: number; windowMs: number; network: string; used: number };

/**
 * Takes one reattempt of the card's budget, or says which limit is spent. Atomic across
 * instances: the per-card advisory lock serialises the count and the insert; the database's
 * clock is the one clock. Rows older than the longest window are dropped as the card is seen.
 */
export async function reserveReattempt(input: { environment: Environment; cardKey: string; merchantId: string; transactionId: string; provider: string }): Promise<Reservation> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`card-reattempt|${input.environment}|${input.merchantId}|${input.cardKey}`}, 45))::text AS locked`;
    await tx.$executeRaw`DELETE FROM card_reattempts WHERE environment = ${input.environment}::"Environment" AND merchant_id = ${input.merchantId} AND card_key = ${input.cardKey} AND at < now() - make_interval(secs => ${LONGEST_MS / 1000})`;
    for (const limit of CARD_REATTEMPT_LIMITS) {
      const [row] = await tx.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM card_reattempts WHERE environment = ${input.environment}::"Environment" AND merchant_id = ${input.merchantId} AND card_key = ${input.cardKey} AND at > now() - make_interval(secs => ${limit.windowMs / 1000})`;
      const used = Number(row?.n ?? 0n);
      if (used >= limit.max) return { allowed: false as const, max: limit.max, windowMs: limit.windowMs, network: limit.network, used };
    }
    await tx.cardReattempt.create({ data: { environment: input.environment, cardKey: input.cardKey, merchantId: input.merchantId, transactionId: input.transactionId, provider: input.provider } });
    return { allowed: true as const };
  });
}
