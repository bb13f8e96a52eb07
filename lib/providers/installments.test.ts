// A payment in installments on the wire (issue 42): the count in each provider's own field, only
// where the provider splits a charge (lib/providers/installments.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { railById } from "@/lib/rails/rails";
import type { ChargeRequest } from "@/lib/providers/types";
import { stringifyWithDecimals } from "@/lib/providers/mercadopago/decimal-json";
import { paymentBody, preferenceBody } from "@/lib/providers/mercadopago/transformers";
import { assertDocumented, documentedFields } from "@/lib/providers/mercadopago/fixtures";
import { directBody, pageBody } from "@/lib/providers/ebanx/transformers";
import { chargeBody } from "@/lib/providers/http-psp/transformers";
import { splitsInstallments } from "@/lib/providers/installments";

const charge = (railId: string, installments?: ChargeRequest["installments"]): ChargeRequest => ({
  transactionId: "tx_abc123",
  rail: railById(railId)!,
  amountLocalMinor: 15_000n,
  currency: railById(railId)!.currency,
  buyer: { name: "Maria da Silva", email: "maria@example.com", documentId: "191.191.191-00" },
  notifyUrl: "https://pay.example.com/api/v1/providers/{provider}/notifications",
  ...(installments ? { installments } : {}),
});
const wire = (body: unknown) => JSON.parse(stringifyWithDecimals(body));
const twelve = { count: 12, totalMinor: 15_000n, paidBy: "merchant" as const };

test("Mercado Pago: the preference's payment_methods and the payment's installments, documented fields only", () => {
  const pref = wire(preferenceBody(charge("1006", twelve), "mercadopago"));
  assertDocumented(pref, documentedFields("preferences-create.request", "preferences-create.response"), "preference in installments");
  assert.deepEqual(pref.payment_methods, { installments: 12, default_installments: 12 });
  assert.equal(wire(preferenceBody(charge("1006"), "mercadopago")).payment_methods, undefined);
  const pay = wire(paymentBody(charge("1006", twelve), "mercadopago", "visa"));
  assertDocumented(pay, documentedFields("payments-create.pix.request", "payments-create.reference.request"), "payment in installments");
  assert.equal(pay.installments, 12);
});

test("EBANX spells it instalments, on the Direct API and the Payment Page", () => {
  const wireInfo = { country: "br", paymentTypeCode: "_creditcard" } as Parameters<typeof pageBody>[2];
  assert.equal(pageBody(charge("1006", twelve), "key", wireInfo).instalments, "12");
  assert.equal(directBody(charge("1006", twelve), "key", wireInfo).payment.instalments, 12);
  assert.equal("instalments" in pageBody(charge("1006"), "key", wireInfo), false);
});

test("the common protocol carries {count, total, paidBy}; who splits", () => {
  assert.deepEqual(chargeBody(charge("1007", { count: 6, totalMinor: 300_000n, paidBy: "buyer" }), "rapidpay").installments, { count: 6, total: "300000", paidBy: "buyer" });
  assert.equal("installments" in chargeBody(charge("1007"), "rapidpay"), false);
  assert.deepEqual(["mercadopago", "ebanx", "pagosur", "rapidpay", "andespay", "stripe"].map((p) => splitsInstallments(p, "MEX")), [true, true, true, true, false, true]);
  assert.equal(splitsInstallments("mercadopago", "COL"), false);
  // Stripe: Mexico's meses sin intereses only, the shop paying the financing; none in Brazil.
  assert.equal(splitsInstallments("stripe", "BRA"), false);
  assert.equal(splitsInstallments("stripe", "MEX", "buyer"), false);
  assert.equal(splitsInstallments("mercadopago", "MEX", "buyer"), true);
});
