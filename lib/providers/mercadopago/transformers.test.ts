// Mercado Pago's wire format against its published examples (./fixtures/, each naming its page):
// the bodies we build use only documented fields, our parsers read the documented answers, and
// money crosses as exact decimals.
import { test } from "node:test";
import assert from "node:assert/strict";
import { railById } from "@/lib/rails/rails";
import type { ChargeRequest } from "@/lib/providers/types";
import { decimal, minorOf, parseWithDecimals, stringifyWithDecimals } from "@/lib/providers/mercadopago/decimal-json";
import { mpAmount, paymentBody, paymentOutcome, paymentReadBack, preferenceBody, preferenceOutcome, searchLookup, statusOf } from "@/lib/providers/mercadopago/transformers";
import { assertDocumented, documentedFields, fixture } from "@/lib/providers/mercadopago/fixtures";

const charge = (railId: string, extra: Partial<ChargeRequest> = {}): ChargeRequest => ({
  transactionId: "tx_abc123",
  rail: railById(railId)!,
  amountLocalMinor: 12_550n,
  currency: railById(railId)!.currency,
  buyer: { name: "Maria da Silva", email: "maria@example.com", documentId: "191.191.191-00" },
  notifyUrl: "https://pay.example.com/api/v1/providers/{provider}/notifications",
  ...extra,
});
/** A body as it goes on the wire (decimals written as numbers), parsed back. */
const wire = (body: unknown) => JSON.parse(stringifyWithDecimals(body));

const PAYMENTS = documentedFields("payments-create.pix.request", "payments-create.boleto.request", "payments-create.spei.request", "payments-create.reference.request");
const PREFERENCES = documentedFields("preferences-create.request", "preferences-create.response");

test("every POST /v1/payments body we build uses only fields of MP's documented examples", () => {
  for (const [rail, method] of [["1001", "pix"], ["1002", "bolbradesco"], ["1003", "clabe"], ["1004", "oxxo"]] as const) {
    const body = wire(paymentBody(charge(rail), "mercadopago", method));
    assertDocumented(body, PAYMENTS, `${method} body`);
    assert.equal(body.payment_method_id, method);
    assert.equal(body.external_reference, "tx_abc123");
    assert.equal(body.notification_url, "https://pay.example.com/api/v1/providers/mercadopago/notifications?source_news=webhooks");
    assert.equal(body.payer.email, "maria@example.com");
  }
  assert.deepEqual(wire(paymentBody(charge("1001"), "mercadopago", "pix")).payer, { email: "maria@example.com", first_name: "Maria", last_name: "da Silva", identification: { type: "CPF", number: "19119119100" } });
  assert.deepEqual(wire(paymentBody(charge("1002", { buyer: { email: "c@example.com", documentId: "11.222.333/0001-81" } }), "mercadopago", "bolbradesco")).payer.identification, { type: "CNPJ", number: "11222333000181" });
  // Mexico takes no identification; SPEI's payer is an individual (integrate-stp.en.md).
  assert.deepEqual(wire(paymentBody(charge("1003"), "mercadopago", "clabe")).payer, { email: "maria@example.com", first_name: "Maria", last_name: "da Silva", entity_type: "individual" });
  assert.equal(paymentBody(charge("1001", { buyer: { name: "No Mail" } }), "mercadopago", "pix"), null, "MP requires payer.email");
});

test("the Checkout Pro preference uses only fields of the documented preference", () => {
  for (const rail of ["1005", "1006", "1007"]) {
    // PSE is COP, sent to MP in whole pesos (mpAmount): 125.00 goes as 125.
    const cop = railById(rail)!.currency === "COP";
    const body = wire(preferenceBody(cop ? charge(rail, { amountLocalMinor: 12_500n }) : charge(rail), "mercadopago"));
    assertDocumented(body, PREFERENCES, `preference for ${rail}`);
    assert.equal(body.external_reference, "tx_abc123");
    assert.deepEqual(body.items, [{ id: "tx_abc123", title: "Payment tx_abc123", quantity: 1, currency_id: railById(rail)!.currency, unit_price: cop ? 125 : 125.5 }]);
    assert.equal(body.back_urls.success, "https://pay.example.com/c/tx_abc123/result");
    assert.equal(body.auto_return, "approved");
  }
});

test("a refund body is MP's {amount}", () => {
  assertDocumented(wire({ amount: decimal(5_025n, "BRL") }), documentedFields("refunds-create.request"), "refund body");
  assert.equal(stringifyWithDecimals({ amount: decimal(5_025n, "BRL") }), '{"amount":50.25}');
});

test("a planted field no documented example has fails the check, naming it", () => {
  const body = { ...wire(paymentBody(charge("1001"), "mercadopago", "pix")), payer: { email: "x@example.com", cpf: "191" }, surprise: true };
  assert.throws(() => assertDocumented(body, PAYMENTS, "planted"), /payer\.cpf, surprise/);
  assert.throws(() => assertDocumented({ ...wire(preferenceBody(charge("1006"), "mercadopago")), items: [{ price_cents: 1 }] }, PREFERENCES, "planted"), /items\[\]\.price_cents/);
});

test("money crosses as exact decimals, never through a float", () => {
  assert.equal(stringifyWithDecimals({ transaction_amount: decimal(12_550n, "BRL") }), '{"transaction_amount":125.50}');
  assert.equal(stringifyWithDecimals({ transaction_amount: decimal(10n, "BRL") }), '{"transaction_amount":0.10}');
  // 45 trillion COP and a cent: past 2^53 minor units, where a float would move the cent.
  const big = 4_500_000_000_000_001n;
  assert.equal(stringifyWithDecimals({ unit_price: decimal(big, "COP") }), '{"unit_price":45000000000000.01}');
  const back = parseWithDecimals('{"id":1,"transaction_amount":45000000000000.01,"currency_id":"COP"}');
  assert.equal(minorOf(back.transaction_amount, "COP"), big);
  assert.equal(minorOf(parseWithDecimals('{"transaction_amount": 0.3}').transaction_amount, "BRL"), 30n);
  // A key inside a string is text, not an amount.
  assert.deepEqual(parseWithDecimals('{"description":"\\"amount\\": 5","amount":5}'), { description: '"amount": 5', amount: "5" });
  assert.equal(minorOf("1.005", "BRL"), null, "more decimals than the currency has: unreadable, never rounded");
  assert.equal(parseWithDecimals("<html>"), undefined);
});

test("the documented creation answers read as accepted, with the buyer's page and instructions", () => {
  assert.deepEqual(paymentOutcome(201, fixture("payments-create.pix.response")), {
    kind: "accepted",
    providerRef: "5466310457",
    paymentFormUrl: "https://www.mercadopago.com.br/payments/123456789/ticket?caller_id=123456&hash=123e4567-e89b-12d3-a456-426655440000",
    instructions: { pixCode: fixture("payments-create.pix.response").point_of_interaction.transaction_data.qr_code },
  });
  const boleto = paymentOutcome(201, fixture("payments-create.boleto.response"));
  assert.deepEqual(boleto, { kind: "accepted", providerRef: "5466310457", paymentFormUrl: fixture("payments-create.boleto.response").transaction_details.external_resource_url, instructions: { reference: "1234567890" } });
  const spei = paymentOutcome(201, fixture("payments-create.spei.response"));
  assert.deepEqual([spei.kind, (spei as any).paymentFormUrl], ["accepted", "https://www.mercadopago.com.mx/payments/51096146182/ticket?caller_id=34728475&hash=f3a8630a-f06a-48e4-b2a6-f95750af7346"]);
  assert.deepEqual(preferenceOutcome(201, fixture("preferences-create.response"), false), { kind: "accepted", providerRef: "202809963-920c288b-4ebb-40be-966f-700250fa5370", paymentFormUrl: fixture("preferences-create.response").init_point, instructions: null });
  assert.equal((preferenceOutcome(201, fixture("preferences-create.response"), true) as any).paymentFormUrl, fixture("preferences-create.response").sandbox_init_point);
});

test("only an explicit refusal declines: rejected with its status_detail, a 400 naming its cause; 401, 5xx, garbage are unknown", () => {
  assert.deepEqual(paymentOutcome(201, { id: 1, status: "rejected", status_detail: "cc_rejected_insufficient_amount" }), { kind: "declined", reason: "cc_rejected_insufficient_amount" });
  assert.deepEqual(paymentOutcome(400, { message: "Invalid transaction_amount", error: "bad_request", status: 400, cause: [{ code: 4037, description: "Invalid transaction_amount" }] }), { kind: "declined", reason: "cause_4037", message: "Invalid transaction_amount" });
  assert.equal(paymentOutcome(400, { message: "Header X-Idempotency-Key can't be null", error: "bad_request", status: 400, cause: [] }).kind, "unavailable", "a 400 without a cause says nothing of the payment");
  assert.equal(paymentOutcome(401, { message: "invalid access token", error: "unauthorized", status: 401, cause: [] }).kind, "unavailable");
  assert.equal(paymentOutcome(500, { message: "internal error" }).kind, "unavailable");
  assert.equal(paymentOutcome(200, undefined).kind, "unavailable");
  assert.equal(paymentOutcome(201, { status: "pending" }).kind, "unavailable", "no id: nothing to follow");
  assert.equal(paymentOutcome(201, { id: 1, status: "weird" }).kind, "unavailable");
  assert.equal(preferenceOutcome(201, { id: "p" }, false).kind, "unavailable", "a preference without its page");
});

test("the documented GET and search answers read back exactly", () => {
  assert.deepEqual(paymentReadBack(200, parseWithDecimals(JSON.stringify(fixture("payments-get.response")))), { kind: "found", providerRef: "0000001", reference: null, status: "paid", amountMinor: 25_000n, currency: "ARS" });
  const search = fixture("payments-search.response");
  const s = searchLookup(200, { ...search, results: search.results.map((r: any) => ({ ...r, external_reference: "tx_1" })) }, "tx_1");
  assert.equal(s.kind, "found_payment");
  assert.deepEqual(searchLookup(200, { paging: { total: 0, limit: 30, offset: 0 }, results: [] }, "tx_1"), { kind: "not_found" });
  assert.equal(searchLookup(503, undefined, "tx_1").kind, "unknown");
  assert.deepEqual(paymentReadBack(404, { message: "Payment not found", error: "not_found", status: 404, cause: [{ code: 2000 }] }), { kind: "not_found" });
  assert.equal(paymentReadBack(404, undefined).kind, "unknown", "a bare 404 (a proxy's page) says nothing");
  assert.equal(paymentReadBack(500, { message: "x" }).kind, "unknown");
});

test("status words: MP's nine, with status_detail where it matters", () => {
  const cases: Array<[string, string, string | null]> = [
    ["pending", "pending_waiting_transfer", "pending"], ["in_process", "pending_contingency", "pending"], ["authorized", "pending_capture", "pending"],
    ["approved", "accredited", "paid"], ["in_mediation", "", "paid"], ["rejected", "cc_rejected_other_reason", "failed"],
    ["cancelled", "expired", "expired"], ["cancelled", "by_collector", "failed"], ["refunded", "refunded", "refunded"], ["charged_back", "settled", "chargeback"], ["nonsense", "", null],
  ];
  for (const [status, detail, ours] of cases) assert.equal(statusOf(status, detail), ours, `${status}/${detail}`);
  // A rejected attempt on MP's Checkout Pro page (a card) leaves the charge open; a rejected PIX does not.
  const read = (method: string, status: string, detail = "") => (paymentReadBack(200, { id: 7, status, status_detail: detail, payment_method_id: method, currency_id: "BRL", transaction_amount: "10" }) as any).status;
  assert.equal(read("visa", "rejected", "cc_rejected_insufficient_amount"), "pending");
  assert.equal(read("pix", "rejected"), "failed");
  assert.equal(read("bolbradesco", "cancelled", "expired"), "expired");
});

test("charged_back by its status_detail: a chargeback the seller won (reimbursed) is paid again, never a new chargeback", () => {
  assert.equal(statusOf("charged_back", "reimbursed"), "paid");
  assert.equal(statusOf("charged_back", "settled"), "chargeback");
  assert.equal(statusOf("charged_back", "in_process"), "chargeback");
  assert.equal(statusOf("charged_back", "something_new"), null);
});

test("a 400 cause declines only when MP documents it as a refusal; MP's own failures and our configuration are unavailable", () => {
  const e400 = (code: number) => ({ message: "x", error: "bad_request", status: 400, cause: [{ code, description: "x" }] });
  for (const c of [2067, 2072, 4037, 4050]) assert.equal(paymentOutcome(400, e400(c)).kind, "declined", String(c));
  for (const c of [2004, 2007, 2041, 2001, 1, 3, 5, 9999]) assert.deepEqual(paymentOutcome(400, e400(c)), { kind: "unavailable", reason: `cause_${c}` }, String(c));
  assert.equal(preferenceOutcome(400, e400(2004), false).kind, "unavailable");
  assert.equal(preferenceOutcome(400, e400(4037), false).kind, "declined");
});

test("COP goes to MP in whole pesos: an amount of whole pesos is written without decimals, one with cents is never sent", () => {
  assert.equal(stringifyWithDecimals({ transaction_amount: mpAmount(5_000_000n, "COP") }), '{"transaction_amount":50000}');
  assert.equal(mpAmount(5_000_037n, "COP"), null);
  assert.equal(stringifyWithDecimals({ a: mpAmount(12_550n, "BRL") }), '{"a":125.50}');
  const cop = { transactionId: "tx_1", rail: { paymentMethodId: "1005", countryIso2: "CO" } as any, amountLocalMinor: 5_000_037n, currency: "COP", buyer: { email: "a@b.co" }, notifyUrl: "https://x.test/api/v1/providers/{provider}/notifications" };
  assert.equal(preferenceBody(cop, "mercadopago"), null);
  assert.match(stringifyWithDecimals(preferenceBody({ ...cop, amountLocalMinor: 5_000_000n }, "mercadopago")), /"unit_price":50000[,}]/);
});

test("not_found only on MP's own 404 (error not_found, status 404); a gateway's {message: Not Found} is unknown", () => {
  assert.equal(paymentReadBack(404, { message: "Not Found" }).kind, "unknown");
  assert.equal(paymentReadBack(404, { message: "Not Found", error: "Not Found" }).kind, "unknown");
  assert.equal(paymentReadBack(404, { message: "Payment not found", error: "not_found", status: 404, cause: [] }).kind, "not_found");
});

test("search results are ours only when they carry our external_reference; another reference's payment is never applied", () => {
  const paid = { id: 5, status: "approved", status_detail: "accredited", payment_method_id: "pix", currency_id: "BRL", transaction_amount: "10.00" };
  assert.equal(searchLookup(200, { results: [{ ...paid, external_reference: "tx_1" }] }, "tx_1").kind, "found_payment");
  assert.deepEqual(searchLookup(200, { results: [{ ...paid, external_reference: "tx_2" }] }, "tx_1"), { kind: "unknown", reason: "results_of_another_reference" });
  assert.equal(searchLookup(200, { results: [{ ...paid, external_reference: "tx_1", status: "pending" }, { ...paid, external_reference: "tx_other" }] }, "tx_1").kind, "unknown");
});
