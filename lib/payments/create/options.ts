// What callers other than POST /payments' body may ask of createPayment (checkout sessions, QR
// orders, the sandbox's headers).
import type { Prisma } from "@/lib/generated/prisma/client";
import type { SandboxBehaviour } from "@/lib/payments/sandbox-behaviour";
import type { ChargeRequest } from "@/lib/providers/types";

export type CreatePaymentOptions = {
  /** Sandbox-Provider-Behaviour header, already parsed (sandbox only). */
  behaviour?: SandboxBehaviour;
  /** Sandbox-Simulate header value, already validated. */
  simulate?: string;
  /** Hosted checkout and payment links require the buyer's name, email and document. */
  requireBuyer?: boolean;
  requestIp?: string | null;
  /** A checkout session's amount, fixed when the session was created (no second conversion). */
  presentment?: { usd: bigint; currency: string; inputMinor: bigint };
  /** The id to give the transaction (a checkout session claims it before the cascade runs). */
  id?: string;
  /**
   * The payer is not known when the charge is made (a QR code at a counter: the payer's bank
   * identifies them when paying), so the rail's buyer fields are not asked for.
   */
  payerUnknown?: boolean;
  /** The QR order this payment carries the money of (its id is written on the row, qrOrderId). */
  qrOrderId?: string;
  /** The recurring PIX mandate this payment is a charge of (written on the row, mandateId). */
  mandateId?: string;
  /** Production: the mandate charge's attempt at the PSP holding its recurrence (ChargeRequest.mandate). */
  mandateCharge?: NonNullable<ChargeRequest["mandate"]>;
  /**
   * A deadline set by the caller instead of the rail's: a mandate charge is sent days before its
   * due date and the payer's bank debits it on that day, so it lives until the due date ends.
   */
  expiresAt?: Date;
  /** Runs in the database transaction that inserts the payment (a checkout session completes there). */
  inTransaction?: (tx: Prisma.TransactionClient) => Promise<void>;
};
