// What the EBANX simulator holds: payments by hash (and by merchant_payment_code, unique as at
// EBANX), their refunds, payouts by uid (and external_reference), and the failure knobs per email.
import { randomBytes } from "node:crypto";
import { createMarket } from "../market-real-providers.ts";

export type Refund = { id: string; merchant_refund_code: string | null; status: "RE" | "PE" | "CO" | "CA"; request_date: string; amount_ext: string; description: string };
export type Payment = {
  hash: string;
  merchantPaymentCode: string;
  status: "OP" | "PE" | "CO" | "CA";
  paymentTypeCode: string;
  country: string;
  currency: string;
  amount: string; // exact decimal text, as asked
  email: string;
  name: string;
  document: string | null;
  openDate: string;
  confirmDate: string | null;
  dueDate: string;
  viaPage: boolean;
  refunds: Refund[];
  denied: boolean;
};
export type Payout = { uid: string; externalReference: string; status: "OP" | "PE" | "PA" | "CA"; amount: string; currency: string; country: string; payee: Record<string, unknown>; target: string | null; targetAccount: string | null; requestDate: string; paidDate: string | null; cancelDate: string | null; email: string };
/** A failure knob for one email: what the next matching create calls do. */
export type Knob = { mode: "decline" | "timeout" | "error" | "garbage" | "succeed_then_timeout" | "reject" | "unknown"; code?: string; message?: string; times?: number };

export const now = () => new Date().toISOString().replace("T", " ").slice(0, 19);
export const hex = (n: number) => randomBytes(n).toString("hex");

export class EbanxStore {
  payments = new Map<string, Payment>();
  byCode = new Map<string, string>();
  payouts = new Map<string, Payout>();
  byReference = new Map<string, string>();
  knobs = new Map<string, Knob[]>();
  /** A market scenario (POST /_control/market): it answers bench buyers' new payments instead of the knobs. */
  market = createMarket("ebanx");
  /** Every request body received, by path (the contract checks read them). */
  requests: Array<{ path: string; body: unknown }> = [];

  /** POST /_control/reset: no knobs, no market (payments and payouts stay, as MP's simulator keeps them). */
  reset() {
    this.knobs.clear();
    this.market.set(null);
  }
  addKnob(email: string, k: Knob) {
    const list = this.knobs.get(email.toLowerCase()) ?? [];
    list.push(k);
    this.knobs.set(email.toLowerCase(), list);
  }
  /** The knob for this email, used up once when it has `times`. */
  takeKnob(email: string | undefined): Knob | null {
    const list = email ? this.knobs.get(email.toLowerCase()) : undefined;
    const k = list?.[0];
    if (!k) return null;
    if (k.times !== undefined && --k.times <= 0) list!.shift();
    return k;
  }
  paymentOf(id: string): Payment | undefined {
    return this.payments.get(id) ?? this.payments.get(this.byCode.get(id) ?? "");
  }
  payoutOf(id: string): Payout | undefined {
    return this.payouts.get(id) ?? this.payouts.get(this.byReference.get(id) ?? "");
  }
}
