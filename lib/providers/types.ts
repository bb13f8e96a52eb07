// The connector interface every upstream provider implements (the sandbox included): charges,
// refunds, CLABE provisioning, payouts, and the status of each by our reference. A connector is
// the flow (which call, how an answer is classified); its wire format (request bodies, answer
// parsing, signatures) lives beside it in `<name>/transformers.ts`, as Hyperswitch splits
// `connectors/<name>.rs` from `<name>/transformers.rs`.
//
// Every call that moves money carries our id as `reference`, the provider's idempotency key,
// and its answer is one of three kinds (decisions.md "Money leaves at most once"): done,
// refused (an explicit refusal: only this fails our row), or unknown (timeout, 5xx, reset,
// unreadable answer: the row stays processing and a status job asks again by reference).
import type { Rail } from "@/lib/rails/rails";

export type ChargeRequest = {
  transactionId: string;
  rail: Rail;
  amountLocalMinor: bigint;
  currency: string;
  buyer: { name?: string; email?: string; phone?: string; documentId?: string; ip?: string };
  notifyUrl: string;
  /**
   * Paid in installments (absent: at once): the count, what the buyer pays in all (the price
   * when the shop pays the financing, more when the buyer does) and who pays. Only providers
   * that split a charge are asked (lib/providers/installments.ts).
   */
  installments?: { count: number; totalMinor: bigint; paidBy: "merchant" | "buyer" };
  /**
   * A recurring PIX mandate's charge (lib/mandates): sent only to the PSP holding the recurrence,
   * as its n-th attempt (`attempt`) of the charge due on `dueDate` (lib/providers/mandates.ts).
   */
  mandate?: CobrRequest & { provider: string; attempt: number; retryDate: string };
};

/** A recurrence (Pix Automático) to create at a PSP for mandate `mandateId`. */
export type RecurrenceRequest = {
  mandateId: string;
  description: string;
  period: "weekly" | "monthly" | "quarterly" | "yearly";
  /** YYYY-MM-DD */
  startDate: string;
  endDate: string | null;
  /** A fixed mandate's amount (BRL minor units); null: variable. */
  amountMinor: bigint | null;
  payer: { name: string; documentId: string };
  /** Where the PSP's notices of recurrences and their charges go (without the /rec or /cobr it adds). */
  notifyUrl: string;
};
export type RecurrenceState = { status: "pending" | "authorized" | "rejected" | "expired" } | { status: "cancelled"; by: "payer" | "merchant" };
export type RecurrenceOutcome = { kind: "created"; providerRef: string; qrCode: string | null } | Refused | Unknown;
export type RecurrenceLookup = ({ kind: "found" } & RecurrenceState) | { kind: "not_found" } | Unknown;
export type RecurrenceCancel = { kind: "cancelled" } | Refused | Unknown;
/** One due date's charge (CobR) of a recurrence: its txid is ours, derived from mandate and due date. */
export type CobrRequest = { idRec: string; txid: string; dueDate: string; amountMinor: bigint; description: string; payerEmail: string | null };

/** A PSP that holds Pix Automático recurrences (lib/providers/http-psp/pix-automatico.ts). */
export interface MandateConnector {
  readonly code: string;
  createRecurrence(r: RecurrenceRequest): Promise<RecurrenceOutcome>;
  readRecurrence(providerRef: string): Promise<RecurrenceLookup>;
  cancelRecurrence(providerRef: string): Promise<RecurrenceCancel>;
}

/** `unavailable` is "unknown" for a charge: the cascade may move on (decisions.md's one exception). */
export type ChargeOutcome =
  | { kind: "accepted"; providerRef: string; paymentFormUrl: string | null; instructions: Record<string, unknown> | null }
  /** `reason`: the provider's code; `message`: its free text, read only to classify the decline. */
  | { kind: "declined"; reason: string; message?: string | null }
  | { kind: "unavailable"; reason: string };

export type ProviderStatus = "pending" | "paid" | "failed" | "expired" | "refunded";
/** A charge looked up by our reference (the transaction id); `not_found`: the provider never made it. */
export type ChargeLookup = { kind: "found"; providerRef: string; status: ProviderStatus } | { kind: "not_found" } | { kind: "unknown"; reason: string };

export type Unknown = { kind: "unknown"; reason: string };
export type Refused = { kind: "refused"; reason: string };

export type RefundRequest = { reference: string; providerRef: string; amountLocalMinor: bigint };
export type RefundOutcome = { kind: "refunded"; providerRef: string | null } | Refused | Unknown;
/** What the provider knows of a refund by our reference; `not_found`: it never received it. */
export type RefundStatus = { kind: "refunded" } | { kind: "rejected"; reason: string } | { kind: "processing" } | { kind: "not_found" } | Unknown;

export type ClabeRequest = { reference: string; endUserRef: string; beneficiary: { name: string; email: string | null }; notifyUrl: string };
/** The account a provider holds under our reference (the sweep of abandoned provisioning rows). */
export type ClabeLookup = { kind: "found"; providerRef: string | null; clabe: unknown; bank: string | null } | { kind: "not_found" } | Unknown;
export type ClabeOutcome = { kind: "issued"; providerRef: string | null; clabe: unknown; bank: string | null } | Refused | Unknown;

export type PayoutRequest = { reference: string; rail: string; country: string; currency: string; amount: bigint; recipient: unknown; notifyUrl: string };
export type PayoutOutcome = { kind: "accepted"; providerRef: string } | Refused | Unknown;
export type PayoutStatus = { kind: "processing" | "paid" | "rejected" | "returned"; providerRef: string | null; reason?: string } | { kind: "not_found" } | Unknown;

/** A notice signature check: `stale` when the signed timestamp is outside the tolerance. */
export type NoticeCheck = "ok" | "missing" | "invalid" | "stale";

/** The cheapest authenticated read a provider offers (npm run providers:check). */
export type CredentialCheck = { kind: "ok" } | { kind: "credentials_refused"; detail: string } | { kind: "unreachable"; detail: string };

/** A notice as it arrived: signatures cover the exact raw body; some schemes sign headers or the URL's query too. */
export type InboundNotice = { rawBody: string; headers: Headers; url: URL; now: Date };
/**
 * What a real provider's notice is about. Never its status: a notice only points, and the status
 * is read back from the provider's API (a forged or replayed body can claim anything).
 */
export type NoticeSubject = { kind: "charge"; providerRef: string } | { kind: "refund"; reference: string } | { kind: "payout"; reference: string };
export type NoticeReading = { kind: "refused"; check: Exclude<NoticeCheck, "ok"> } | { kind: "verified"; noticeId: string; subjects: NoticeSubject[] };
/**
 * A charge read back from the provider by its id: our reference (the transaction id) as the provider holds it.
 * `installmentsCount`: the installments the buyer chose at the provider (1: paid at once), where the
 * buyer chooses on the provider's own page (Stripe Checkout's meses sin intereses); absent when
 * the provider does not say, and then the count we asked stands.
 */
export type ChargeReadBack = { kind: "found"; providerRef: string; reference: string | null; status: ProviderStatus | "chargeback"; amountMinor: bigint | null; currency: string | null; installmentsCount?: number } | { kind: "not_found" } | Unknown;

export interface Connector {
  readonly code: string;
  /** The cheapest authenticated read (npm run providers:check); never moves money. */
  checkCredentials(): Promise<CredentialCheck>;
  createCharge(req: ChargeRequest): Promise<ChargeOutcome>;
  /** A charge's status by the provider's id (null: no usable answer). */
  getStatus(providerRef: string): Promise<ProviderStatus | null>;
  chargeByReference(reference: string): Promise<ChargeLookup>;
  refund(req: RefundRequest): Promise<RefundOutcome>;
  /** `paymentRef`: the refunded charge's provider id, for providers that find refunds only through their payment (EBANX). */
  refundStatus(reference: string, paymentRef?: string | null): Promise<RefundStatus>;
  provisionClabe(req: ClabeRequest): Promise<ClabeOutcome>;
  /** The CLABE issued under our reference (the account id), if any. */
  clabeByReference(reference: string): Promise<ClabeLookup>;
  payout(req: PayoutRequest): Promise<PayoutOutcome>;
  payoutStatus(reference: string): Promise<PayoutStatus>;
  /** Checks a notice's signature (with its signed timestamp) over the exact raw body. */
  verifyNotice(rawBody: string, signature: string | null, now?: Date): NoticeCheck;
}

/**
 * A real provider's connector (Stripe, Mercado Pago, EBANX): its notices arrive in its own scheme
 * on /api/v1/providers/<code>/notifications and are applied by lib/outcomes/apply-real-provider-notice.ts.
 * `verifyNotice` (the common protocol's HMAC) answers "invalid" for them.
 */
export interface RealConnector extends Connector {
  /** Verifies a notice in the provider's own scheme before anything else is read, and names its subjects. */
  readNotice(n: InboundNotice): NoticeReading | Promise<NoticeReading>;
  /** A charge as the provider has it now, by its id. */
  readCharge(providerRef: string): Promise<ChargeReadBack>;
}

export function isRealConnector(c: Connector): c is RealConnector {
  return typeof (c as Partial<RealConnector>).readNotice === "function" && typeof (c as Partial<RealConnector>).readCharge === "function";
}
