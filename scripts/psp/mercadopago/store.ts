// What the Mercado Pago simulator (./simulator.ts) holds: payments, preferences, refunds, the
// answers given per X-Idempotency-Key, and the failure rules a test sets. Payments are rendered
// in MP's wire shape (the fields of lib/providers/mercadopago/fixtures/), amounts as JSON decimals.
import { randomBytes, randomUUID } from "node:crypto";
import { createMarket } from "../market-real-providers.ts";

export type Status = "pending" | "approved" | "authorized" | "in_process" | "in_mediation" | "rejected" | "cancelled" | "refunded" | "charged_back";
export type Refund = { id: number; payment_id: number; amount: bigint; status: string; date_created: string };
export type Delivery = { status: string; httpStatus: number | null };
export type Payment = {
  id: number;
  status: Status;
  status_detail: string;
  payment_method_id: string;
  payment_type_id: string;
  currency_id: string;
  amount: bigint;
  description: string | null;
  external_reference: string | null;
  notification_url: string | null;
  payer: Record<string, unknown>;
  date_created: string;
  date_last_updated: string;
  preference_id: string | null;
  refunds: Refund[];
  deliveries: Delivery[];
};
export type Preference = { id: string; body: any; items: any[]; external_reference: string | null; notification_url: string | null; date_created: string; currency: string; amount: bigint };

/** Failure knobs, per buyer e-mail: see ./control.ts for each mode (unavailable: a market outage's 503). */
export type Mode = "accept" | "decline" | "invalid" | "timeout" | "error" | "unavailable" | "garbage" | "succeed_then_timeout" | "succeed_then_error";
export type Rule = { mode: Mode; forEmail?: string; reason?: string; times?: number };

const EXP: Record<string, number> = { BRL: 2, MXN: 2, COP: 2, ARS: 2, CLP: 0, PEN: 2, UYU: 2, USD: 2 };
export const exponentOf = (currency: string) => EXP[currency] ?? 2;

/** Minor units -> the decimal text MP writes as a JSON number. */
export function decimalText(minor: bigint, currency: string): string {
  const exp = exponentOf(currency);
  const base = 10n ** BigInt(exp);
  const frac = (minor % base).toString().padStart(exp, "0").replace(/0+$/, "");
  return `${minor / base}${frac ? `.${frac}` : ""}`;
}

/** A decimal number as it arrived (its exact text) -> minor units; null when it has more decimals than the currency. */
export function minorOfText(text: string, currency: string): bigint | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  const exp = exponentOf(currency);
  const frac = (m?.[2] ?? "").replace(/0+$/, "");
  if (!m || frac.length > exp) return null;
  return BigInt(m[1]! + frac.padEnd(exp, "0"));
}

const NUM = "\u0000num:";
/** A value JSON.stringify writes as a string and `wireJson` as a bare number. */
export const num = (text: string) => `${NUM}${text}`;
export const wireJson = (v: unknown) => JSON.stringify(v).replace(/"\\u0000num:(-?\d+(?:\.\d+)?)"/g, "$1");

const TYPES: Record<string, string> = { pix: "bank_transfer", clabe: "bank_transfer", pse: "bank_transfer", bolbradesco: "ticket", oxxo: "ticket", visa: "credit_card", master: "credit_card" };

export function createStore(base: string) {
  let nextId = 1_300_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  const payments = new Map<number, Payment>();
  const preferences = new Map<string, Preference>();
  const idempotent = new Map<string, { status: number; body: string }>();
  /** Payment ids whose GET answers 404 (the "provider denies" knob). */
  const denied = new Set<string>();
  /** Payment ids whose next GETs answer 500 (an outage of MP's API), with how many are left. */
  const outage = new Map<string, number>();
  let rules: Rule[] = [];
  /** A market scenario (POST /_control/market): it answers bench buyers' new payments instead of the rules. */
  const market = createMarket("mercadopago");
  let refundId = 9_000_000_000;
  const now = () => new Date().toISOString().replace("Z", "-03:00").replace(/\.\d+/, ".000");

  return {
    payments,
    preferences,
    idempotent,
    denied,
    outage,
    market,
    get rules() {
      return rules;
    },
    addRule: (r: Rule) => rules.push(r),
    reset() {
      rules = [];
      market.set(null);
      denied.clear();
      outage.clear();
    },
    /** The first rule for this e-mail (or for everyone), used up after `times`. */
    pick(email: string | undefined): Rule {
      const i = rules.findIndex((r) => !r.forEmail || r.forEmail === email);
      if (i < 0) return { mode: "accept" };
      const r = rules[i]!;
      if (r.times !== undefined && --r.times <= 0) rules.splice(i, 1);
      return r;
    },
    newPayment(p: Omit<Payment, "id" | "date_created" | "date_last_updated" | "refunds" | "deliveries" | "payment_type_id">): Payment {
      const pay: Payment = { ...p, id: nextId++, payment_type_id: TYPES[p.payment_method_id] ?? "credit_card", date_created: now(), date_last_updated: now(), refunds: [], deliveries: [] };
      payments.set(pay.id, pay);
      return pay;
    },
    newPreference(body: any, currency: string, amount: bigint): Preference {
      const pref: Preference = { id: `${1_000_000_000 + Math.floor(Math.random() * 1e8)}-${randomUUID()}`, body, items: body.items, external_reference: body.external_reference ?? null, notification_url: body.notification_url ?? null, date_created: now(), currency, amount };
      preferences.set(pref.id, pref);
      return pref;
    },
    newRefund(p: Payment, amount: bigint): Refund {
      const r: Refund = { id: refundId++, payment_id: p.id, amount, status: "approved", date_created: now() };
      p.refunds.push(r);
      return r;
    },
    touch(p: Payment, status: Status, detail: string) {
      p.status = status;
      p.status_detail = detail;
      p.date_last_updated = now();
    },
    /** A payment in MP's wire shape (the GET /v1/payments/{id} answer). */
    render(p: Payment): unknown {
      const refunded = p.refunds.filter((r) => r.status === "approved").reduce((s, r) => s + r.amount, 0n);
      const ticket = `${base}/payments/${p.id}/ticket?caller_id=1&hash=${randomBytes(4).toString("hex")}`;
      const cashLike = p.payment_type_id === "ticket" || p.payment_method_id === "clabe";
      const payer = p.payer as { email?: string; first_name?: string; last_name?: string; identification?: { type?: string; number?: string }; entity_type?: string };
      return {
        id: p.id,
        version: null,
        date_created: p.date_created,
        date_approved: p.status === "approved" ? p.date_last_updated : null,
        date_last_updated: p.date_last_updated,
        date_of_expiration: null,
        money_release_date: null,
        operation_type: "regular_payment",
        issuer_id: null,
        payment_method_id: p.payment_method_id,
        payment_type_id: p.payment_type_id,
        ...(p.payment_method_id === "clabe" ? { payment_method: { id: "clabe", type: "bank_transfer", data: { reference_id: String(p.id), external_reference_id: null } } } : {}),
        status: p.status,
        status_detail: p.status_detail,
        currency_id: p.currency_id,
        description: p.description,
        live_mode: false,
        sponsor_id: null,
        authorization_code: null,
        money_release_schema: null,
        counter_currency: null,
        collector_id: 1,
        payer: { type: "guest", id: null, email: payer.email ?? null, identification: { type: payer.identification?.type ?? null, number: payer.identification?.number ?? null }, phone: { area_code: null, number: null, extension: null }, first_name: payer.first_name ?? null, last_name: payer.last_name ?? null, entity_type: payer.entity_type ?? null },
        metadata: {},
        additional_info: {},
        order: {},
        external_reference: p.external_reference,
        transaction_amount: num(decimalText(p.amount, p.currency_id)),
        transaction_amount_refunded: num(decimalText(refunded, p.currency_id)),
        coupon_amount: num("0"),
        differential_pricing_id: null,
        deduction_schema: null,
        fee_details: [],
        captured: true,
        binary_mode: false,
        call_for_authorize_id: null,
        statement_descriptor: null,
        installments: 1,
        card: {},
        notification_url: p.notification_url,
        refunds: p.refunds.map((r) => this.renderRefund(r, p.currency_id)),
        processing_mode: "aggregator",
        merchant_account_id: null,
        acquirer: null,
        merchant_number: null,
        acquirer_reconciliation: [],
        transaction_details: {
          net_received_amount: num("0"),
          total_paid_amount: num(decimalText(p.amount, p.currency_id)),
          overpaid_amount: num("0"),
          external_resource_url: cashLike ? ticket : null,
          installment_amount: num("0"),
          financial_institution: null,
          payment_method_reference_id: p.payment_type_id === "ticket" ? String(p.id).slice(-10) : null,
          payable_deferral_period: null,
          acquirer_reference: null,
          ...(p.payment_method_id === "bolbradesco" ? { barcode: { content: `23791${String(p.id).padStart(39, "0")}` }, digitable_line: `23790.00009 ${String(p.id).padStart(11, "0")} 00000.000000 1 00000000000000` } : {}),
        },
        ...(p.payment_method_id === "pix"
          ? { point_of_interaction: { type: "PIX", sub_type: null, application_data: { name: null, version: null }, transaction_data: { qr_code: `00020126580014br.gov.bcb.pix0136${p.id}5204000053039865802BR6304ABCD`, qr_code_base64: "iVBORw0KGgo=", ticket_url: ticket } } }
          : {}),
      };
    },
    renderRefund(r: Refund, currency: string): unknown {
      return { id: r.id, payment_id: r.payment_id, amount: num(decimalText(r.amount, currency)), metadata: {}, source: { id: "1", name: "collector", type: "collector" }, date_created: r.date_created, unique_sequence_number: null, refund_mode: "standard", adjustment_amount: num("0"), status: r.status, reason: null, amount_refunded_to_payer: num(decimalText(r.amount, currency)) };
    },
    byReference: (ref: string) => [...payments.values()].filter((p) => p.external_reference === ref),
  };
}
export type Store = ReturnType<typeof createStore>;
