// Prefixed, unguessable identifiers: the prefix says what the id names (Stripe-style).
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` base62 characters from a CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const ID_PREFIXES = {
  merchant: "mer",
  shop: "shp",
  keyPair: "key",
  refreshToken: "rtk",
  idempotency: "idk",
  dashboardUser: "usr",
  request: "req",
  transaction: "tx",
  posting: "pst",
  ledgerEntry: "ent",
  event: "evt",
  scheduledAction: "job",
  webhook: "whk",
  delivery: "dlv",
  inboxMessage: "inb",
  checkoutSession: "cs",
  depositAccount: "eda",
  heldDeposit: "hdp",
  deposit: "edp",
  payout: "po",
  payoutTransfer: "ptr",
  swapQuote: "swq",
  apiRequest: "arq",
  recoveryCode: "rec",
  securityEvent: "sev",
  settlement: "stl",
  claimEvidence: "evd",
  withdrawal: "wdr",
  topup: "top",
  qrEstablishment: "qre",
  qrOrder: "qro",
  routingConfig: "rtc",
  declineRule: "dcl",
} as const;

export function newId(kind: keyof typeof ID_PREFIXES): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}
