// The sandbox provider as a connector: no network. Its charges are paid on the app's own sandbox
// page, its CLABEs are synthetic (valid check digit, STP prefix), its refunds and payouts are
// confirmed by the sandbox's own schedule (lib/jobs/run-scheduled-actions.ts, payout simulate),
// so every call here "succeeds" and every status is the one our rows already hold.
import { createHash } from "node:crypto";
import { config } from "@/lib/platform/config";
import { randomBase62 } from "@/lib/platform/ids";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import type { CredentialCheck, ChargeLookup, ChargeOutcome, ChargeRequest, ClabeLookup, ClabeOutcome, Connector, NoticeCheck, PayoutOutcome, PayoutRequest, PayoutStatus, ProviderStatus, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";

export function sandboxPaymentPage(transactionId: string): string {
  return `${config().APP_URL}/pay/sandbox/${transactionId}`;
}

/** A fresh sandbox CLABE: 646 (STP) + plaza 180 + 11 digits from a random seed + check digit. */
export function newSandboxClabe(): string {
  const h = createHash("sha256").update(randomBase62(32)).digest();
  let account = "";
  for (let i = 0; account.length < 11; i++) account += (h[i]! % 10).toString();
  const first17 = `646180${account}`;
  return first17 + clabeCheckDigit(first17);
}

export class SandboxConnector implements Connector {
  readonly code = "sandbox";

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    return { kind: "accepted", providerRef: req.transactionId, paymentFormUrl: sandboxPaymentPage(req.transactionId), instructions: null };
  }

  async getStatus(): Promise<ProviderStatus | null> {
    return null;
  }

  async chargeByReference(): Promise<ChargeLookup> {
    return { kind: "not_found" };
  }

  async refund(req: RefundRequest): Promise<RefundOutcome> {
    return { kind: "refunded", providerRef: req.reference };
  }

  async refundStatus(): Promise<RefundStatus> {
    return { kind: "processing" };
  }

  async provisionClabe(): Promise<ClabeOutcome> {
    return { kind: "issued", providerRef: null, clabe: newSandboxClabe(), bank: null };
  }

  /** The sandbox keeps no accounts apart from our rows: nothing to look up. */
  async clabeByReference(): Promise<ClabeLookup> {
    return { kind: "unknown", reason: "sandbox_keeps_no_accounts" };
  }

  async payout(req: PayoutRequest): Promise<PayoutOutcome> {
    return { kind: "accepted", providerRef: `sim_${req.reference.slice(3)}` };
  }

  async payoutStatus(): Promise<PayoutStatus> {
    return { kind: "processing", providerRef: null };
  }

  /** The sandbox sends no notices: nothing it is shown is genuine. */
  async checkCredentials(): Promise<CredentialCheck> {
    return { kind: "ok" };
  }

  verifyNotice(): NoticeCheck {
    return "invalid";
  }
}
