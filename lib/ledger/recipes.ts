// The named postings: every way money moves, written once. A recipe only computes legs; the
// kernel (lib/ledger/transition.ts) posts them with the state change they belong to. Adding a
// way for money to move means adding a recipe here, never spelling out legs at the call site.
import { FLAT_FEE_USD_MINOR } from "@/lib/pricing/fees";
import type { Account, Leg, PostingKind } from "@/lib/ledger/post";

export type Posting = { kind: PostingKind; legs: Leg[]; transactionId?: string | null; claimId?: string | null };

const usd = (account: Account, amount: bigint): Leg => ({ account, currency: "USD", amount });

/** What a recipe needs of a pay-in (a Transaction row has all of it). */
export type Charge = { id: string; amountUsd: bigint; feePlatform: bigint; feeProvider: bigint; feeNetwork: bigint; reserveAmount: bigint; feeFinancing?: bigint };
/** What a recipe needs of a claim (refund or chargeback). */
export type Frozen = { id: string; transactionId: string; amountUsd: bigint; frozenFromPending: bigint; financingReversed?: bigint };
/** What a recipe needs of a payout. */
export type PayoutMoney = { currency: string; amount: bigint };

/** A pay-in's net: what reaches the merchant's buckets once fees and the reserve are taken. */
export const netOf = (t: Charge) => t.amountUsd - t.feePlatform - t.feeProvider - t.feeNetwork - t.reserveAmount - (t.feeFinancing ?? 0n);

/**
 * pending -> completed (or a CLABE deposit credited): the net to `pending`, the reserve to
 * `reserve`, each fee to its account (the flat part of the platform fee apart). A shop-paid
 * installment plan's financing fee is its own leg (`financing_fees`): the acquirer advances the
 * whole price at once, less that fee.
 */
export function paymentCompleted(t: Charge, kind: "payment_completed" | "deposit_credited" = "payment_completed"): Posting {
  const flat = FLAT_FEE_USD_MINOR < t.feePlatform ? FLAT_FEE_USD_MINOR : t.feePlatform;
  return {
    kind,
    transactionId: t.id,
    legs: [
      usd("provider_clearing", -t.amountUsd),
      usd("pending", netOf(t)),
      ...reserveHold(t),
      usd("platform_fees", t.feePlatform - flat),
      usd("flat_fees", flat),
      usd("provider_fees", t.feeProvider),
      usd("network_fees", t.feeNetwork),
      usd("financing_fees", t.feeFinancing ?? 0n),
    ],
  };
}

/** A CLABE deposit credited: the same legs as a completed payment. */
export const depositCredited = (t: Charge) => paymentCompleted(t, "deposit_credited");

/** Settlement: what is left of the net in `pending` becomes `available`. */
export function settlement(t: Charge & { pendingDebited: bigint }): Posting {
  const amount = netOf(t) - t.pendingDebited;
  return { kind: "settlement", transactionId: t.id, legs: [usd("pending", -amount), usd("available", amount)] };
}

/** The rolling reserve held at completion (part of paymentCompleted). */
export function reserveHold(t: Charge): Leg[] {
  return [usd("reserve", t.reserveAmount)];
}

/** The hold ends: the reserve goes to `available`. */
export function reserveRelease(t: Charge): Posting {
  return { kind: "reserve_release", transactionId: t.id, legs: [usd("reserve", -t.reserveAmount), usd("available", t.reserveAmount)] };
}

/**
 * Where a freeze takes its money from: the payment's unsettled net first, then `available`; a
 * refund of a shop-paid installment payment also takes back, from `financing_fees`, the part of
 * the financing fee in proportion to what is refunded (`fromFinancing`): the buyer gets back what
 * they paid, the shop gives back only what it was credited for that part.
 */
export type FreezeSplit = { fromPending: bigint; fromAvailable: bigint; fromFinancing?: bigint };

/** The whole amount a freeze holds. */
export const frozenOf = (split: FreezeSplit) => split.fromPending + split.fromAvailable + (split.fromFinancing ?? 0n);

function freezeLegs(split: FreezeSplit): Leg[] {
  return [usd("pending", -split.fromPending), usd("available", -split.fromAvailable), usd("financing_fees", -(split.fromFinancing ?? 0n)), usd("frozen", frozenOf(split))];
}

/** A refund or chargeback opens: its amount is frozen (the split is recorded on the claim). */
export function freeze(kind: "refund_freeze" | "chargeback_freeze" | "med_freeze", claim: { id: string; transactionId: string }, split: FreezeSplit): Posting {
  return { kind, transactionId: claim.transactionId, claimId: claim.id, legs: freezeLegs(split) };
}

/**
 * A freeze released (refund rejected, chargeback won): the money goes back to the bucket it came
 * from. `toPending` is the part that came from `pending` while the payment is still unsettled
 * (once it has settled, that part would have become available anyway).
 */
export function freezeRelease(kind: "refund_rejected" | "chargeback_won" | "med_released", c: Frozen, toPending: bigint): Posting {
  const financing = c.financingReversed ?? 0n;
  return { kind, transactionId: c.transactionId, claimId: c.id, legs: [usd("frozen", -c.amountUsd), usd("financing_fees", financing), usd("pending", toPending), usd("available", c.amountUsd - financing - toPending)] };
}

/** A refund confirmed by the provider: the frozen amount leaves. */
export function refundResolved(c: Frozen): Posting {
  return { kind: "refund_resolved", transactionId: c.transactionId, claimId: c.id, legs: [usd("frozen", -c.amountUsd), usd("refunds_payable", c.amountUsd)] };
}

/** The sandbox's refund in full: frozen and paid out in one posting. */
export function refundImmediate(claim: { id: string; transactionId: string }, split: FreezeSplit): Posting {
  const amount = frozenOf(split);
  return { kind: "refund_immediate", transactionId: claim.transactionId, claimId: claim.id, legs: [...freezeLegs(split), usd("frozen", -amount), usd("refunds_payable", amount)] };
}

/** A PIX MED decided for the payer: the blocked amount goes back to them, as a refund does (no fee). */
export function medReturned(c: Frozen): Posting {
  return { kind: "med_returned", transactionId: c.transactionId, claimId: c.id, legs: [usd("frozen", -c.amountUsd), usd("refunds_payable", c.amountUsd)] };
}

/** A chargeback lost: the frozen amount leaves, and the chargeback fee is taken from `available`. */
export function chargebackLost(c: Frozen, fee: bigint): Posting {
  return {
    kind: "chargeback_lost",
    transactionId: c.transactionId,
    claimId: c.id,
    legs: [usd("frozen", -c.amountUsd), usd("chargebacks_payable", c.amountUsd), usd("available", -fee), usd("chargeback_fees", fee)],
  };
}

/** Pay-in `available` USD to the payout USD balance. */
export function payoutTransfer(amountUsd: bigint): Posting {
  return { kind: "payout_transfer", legs: [usd("available", -amountUsd), usd("payout_available", amountUsd)] };
}

/** USD to a local currency inside the payout balance, at the quote's rate, less its fee. */
export function payoutSwap(q: { amountUsd: bigint; feeUsd: bigint; toCurrency: string; amountLocal: bigint }): Posting {
  return {
    kind: "payout_swap",
    legs: [
      usd("payout_available", -q.amountUsd),
      usd("swap_fees", q.feeUsd),
      usd("fx_clearing", q.amountUsd - q.feeUsd),
      { account: "fx_clearing", currency: q.toCurrency, amount: -q.amountLocal },
      { account: "payout_available", currency: q.toCurrency, amount: q.amountLocal },
    ],
  };
}

/** Sandbox test money into the payout balance, from a counter account. */
export function sandboxFunding(currency: string, amount: bigint): Posting {
  return { kind: "payout_sandbox_funding", legs: [{ account: "sandbox_funding", currency, amount: -amount }, { account: "payout_available", currency, amount }] };
}

const payoutMove = (kind: PostingKind, from: Account, to: Account, p: PayoutMoney): Posting => ({
  kind,
  legs: [
    { account: from, currency: p.currency, amount: -p.amount },
    { account: to, currency: p.currency, amount: p.amount },
  ],
});

/** A payout is sent: its amount is held in flight. */
export const payoutDebit = (p: PayoutMoney) => payoutMove("payout_debit", "payout_available", "payout_in_flight", p);
/** Paid: the in-flight money leaves for good. */
export const payoutCompleted = (p: PayoutMoney) => payoutMove("payout_completed", "payout_in_flight", "payouts_sent", p);
/** Failed: the in-flight money goes back to the available balance. */
export const payoutReversed = (p: PayoutMoney) => payoutMove("payout_reversed", "payout_in_flight", "payout_available", p);
/** Returned by the bank after it was paid: the money comes back to the available balance. */
export const payoutReturn = (p: PayoutMoney) => payoutMove("payout_returned", "payouts_sent", "payout_available", p);

/** What a recipe needs of money sent out in crypto (a settlement batch or a withdrawal), in USD minor units. */
export type CryptoSend = { amountUsd: bigint; feeUsd: bigint };

const cryptoOut = (kinds: { held: PostingKind; sent: PostingKind; back: PostingKind }) => ({
  /** Closed / requested: amount and fee leave `available` and wait in `in_transit`. */
  held: (s: CryptoSend): Posting => ({ kind: kinds.held, legs: [usd("available", -(s.amountUsd + s.feeUsd)), usd("in_transit", s.amountUsd + s.feeUsd)] }),
  /** Paid / completed: the amount leaves the books, the fee is ours. */
  sent: (s: CryptoSend): Posting => ({
    kind: kinds.sent,
    legs: [usd("in_transit", -(s.amountUsd + s.feeUsd)), usd("crypto_sent", s.amountUsd), usd("withdrawal_fees", s.feeUsd)],
  }),
  /** Failed: amount and fee go back to `available`. */
  back: (s: CryptoSend): Posting => ({ kind: kinds.back, legs: [usd("in_transit", -(s.amountUsd + s.feeUsd)), usd("available", s.amountUsd + s.feeUsd)] }),
});

const settlementMoves = cryptoOut({ held: "settlement_closed", sent: "settlement_paid", back: "settlement_failed" });
/**
 * A settlement batch closes: its gross (`amountUsd` = net, `feeUsd` = the tier's withdrawal fee)
 * leaves `available` for `in_transit`; paid, the net leaves the books and the fee is earned;
 * failed, the whole gross is available again.
 */
export const settlementClosed = settlementMoves.held;
export const settlementPaid = settlementMoves.sent;
export const settlementFailed = settlementMoves.back;

const withdrawalMoves = cryptoOut({ held: "withdrawal_requested", sent: "withdrawal_completed", back: "withdrawal_failed" });
/** An on-demand withdrawal: `amountUsd` plus `feeUsd` held, then sent or returned, as a settlement. */
export const withdrawalRequested = withdrawalMoves.held;
export const withdrawalCompleted = withdrawalMoves.sent;
export const withdrawalFailed = withdrawalMoves.back;

/** A crypto top-up (USD stablecoin, 1:1) credited to the payout USD balance. */
export function topupCredited(amountUsd: bigint): Posting {
  return { kind: "topup_credited", legs: [usd("crypto_received", -amountUsd), usd("payout_available", amountUsd)] };
}
