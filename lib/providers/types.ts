// The connector interface every upstream provider implements.
import type { Rail } from "@/lib/catalog/rails";

export type ChargeRequest = {
  transactionId: string;
  rail: Rail;
  amountLocalMinor: bigint;
  currency: string;
  buyer: { name?: string; email?: string; phone?: string; documentId?: string; ip?: string };
  notifyUrl: string;
};

export type ChargeOutcome =
  | { kind: "accepted"; providerRef: string; paymentFormUrl: string | null; instructions: Record<string, unknown> | null }
  | { kind: "declined"; reason: string }
  | { kind: "unavailable"; reason: string };

export type ProviderStatus = "pending" | "paid" | "failed" | "expired" | "refunded";

export interface Connector {
  readonly code: string;
  createCharge(req: ChargeRequest): Promise<ChargeOutcome>;
  getStatus(providerRef: string): Promise<ProviderStatus | null>;
  /** Checks a notice's signature over the raw body. */
  verifyNotice(rawBody: string, signature: string | null): boolean;
  refund(providerRef: string, amountLocalMinor: bigint): Promise<{ ok: boolean; reason?: string }>;
}
