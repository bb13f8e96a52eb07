// Prefixed, unguessable identifiers: the prefix says what the id names (Stripe-style).
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG bytes fetched 4 KiB at a time: one randomBytes call per id (several per request) cost
// more than the id itself. Each byte is handed out once, in order, and never reused.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

function nextRandomByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  return pool[offset++]!;
}

/** `length` base62 characters from a CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
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
  mandate: "mdt",
  mandateCharge: "mdc",
  routingConfig: "rtc",
  declineRule: "dcl",
} as const;

export function newId(kind: keyof typeof ID_PREFIXES): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}
