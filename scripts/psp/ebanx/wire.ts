// The EBANX simulator's answers, field for field as EBANX's published examples carry them
// (lib/providers/ebanx/fixtures/: github.com/ebanx/benjamin tests/Unit/Services/Gateways/*Test.php,
// docs.ebanx.com's retrieve-payment, refund, payout create and retrieve pages). Amounts go out as
// written in those examples: a bare JSON number for PIX (PixTest), strings elsewhere.
import type { Payment, Payout, Refund } from "./store.ts";

/** JSON text where `{__raw: "100.50"}` is written as the bare number 100.50. */
export const jsonText = (v: unknown) => JSON.stringify(v).replace(/\{"__raw":"(\d+(?:\.\d+)?)"\}/g, "$1");
const raw = (s: string) => ({ __raw: s });

export const error = (code: string, message: string) => ({ status: "ERROR", status_code: code, status_message: message });
/** Payout errors have their own object (docs.ebanx.com/docs/payout/createPayout/payoutErrorCodes). */
export const payoutError = (code: string, message: string) => ({ type: "invalid_request_error", message, status_code: code, code });

const refundJson = (r: Refund) => ({ id: r.id, merchant_refund_code: r.merchant_refund_code, status: r.status, request_date: r.request_date, pending_date: null, confirm_date: r.status === "CO" ? r.request_date : null, cancel_date: r.status === "CA" ? r.request_date : null, amount_ext: r.amount_ext, description: r.description });

/** The payment object of /ws/direct, /ws/request and /ws/query answers. */
export function paymentJson(p: Payment, baseUrl: string) {
  const pix = p.paymentTypeCode === "pix";
  const amount = pix ? raw(p.amount) : p.amount;
  const rail: Record<string, unknown> = {};
  if (pix) rail.pix = { qr_code_value: `00020126580014br.gov.bcb.pix0136${p.hash.slice(0, 36)}5204000053039865406${p.amount}5802BR5905EBANX6009SAO PAULO62070503***6304ABCD` };
  if (p.paymentTypeCode === "boleto") {
    const line = `34191760071${p.hash.replace(/\D/g, "").padEnd(36, "7").slice(0, 36)}`;
    Object.assign(rail, { boleto_url: `${baseUrl}/print/?hash=${p.hash}`, boleto_barcode: line.slice(0, 47), boleto_barcode_raw: line.slice(0, 44) });
  }
  if (p.paymentTypeCode === "oxxo") Object.assign(rail, { oxxo_url: `${baseUrl}/print/oxxo/?hash=${p.hash}`, oxxo_barcode: `5100000000002002${p.hash.replace(/\D/g, "").padEnd(16, "1").slice(0, 16)}` });
  if (p.paymentTypeCode === "spei") Object.assign(rail, { clabe_account: "646180111900000339", clabe_reference: p.hash.replace(/\D/g, "").padEnd(7, "4").slice(0, 7), spei_url: `${baseUrl}/print/spei/execute?hash=${p.hash}` });
  return {
    hash: p.hash,
    pin: p.hash.replace(/\D/g, "").padEnd(9, "0").slice(0, 9),
    country: p.country,
    merchant_payment_code: p.merchantPaymentCode,
    order_number: null,
    status: p.status,
    status_date: p.status === "CO" || p.status === "CA" ? p.confirmDate : null,
    open_date: p.openDate,
    confirm_date: p.confirmDate,
    transfer_date: null,
    amount_br: amount,
    amount_ext: amount,
    amount_iof: pix ? raw("0") : "0.00",
    currency_rate: pix ? raw("1") : "1.0000",
    currency_ext: p.currency,
    due_date: p.dueDate,
    instalments: pix ? raw("1") : "1",
    payment_type_code: p.paymentTypeCode,
    ...rail,
    pre_approved: false,
    capture_available: null,
    ...(p.refunds.length ? { refunds: p.refunds.map(refundJson) } : {}),
    customer: { document: p.document ?? "0", email: p.email, name: p.name.toUpperCase(), birth_date: null },
  };
}

export const refundAnswer = (p: Payment, r: Refund, baseUrl: string) => ({ payment: paymentJson(p, baseUrl), refund: refundJson(r), operation: "refund", status: "SUCCESS" });

/** The payout object (consultPayout's sample response). */
export const payoutJson = (p: Payout) => ({
  uid: p.uid,
  external_reference: p.externalReference,
  status: p.status,
  request_date: p.requestDate,
  status_date: p.paidDate ?? p.cancelDate,
  paid_date: p.paidDate,
  cancel_date: p.cancelDate,
  payee: p.payee,
  request_amount: p.amount,
  request_currency: p.currency,
  request_exchange_rate: "1.0000",
  // A local payout from a local balance: no conversion, and the simulator charges no fee.
  debit_amount: p.amount,
  debit_fee: "0.00",
  debit_amount_total: p.amount,
  debit_currency: p.currency,
  local_tax_amount: "0.00",
  local_amount_total: p.amount,
  local_currency: p.currency,
});
