// The simulator speaks what EBANX publishes: each answer carries every field of the documented
// example of its endpoint (lib/providers/ebanx/fixtures/), and it refuses a body without the key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EbanxStore } from "./store.ts";
import { serveApi } from "./api.ts";
import { fieldPaths, fixture } from "../../../lib/providers/ebanx/contract.ts";
import { parseExactJson } from "../../../lib/providers/ebanx/exact-json.ts";
import { jsonText } from "./wire.ts";

const KEY = "test_ik_contract";
const base = "http://127.0.0.1:1";
// Fields EBANX echoes from parameters we never send (the SDK's user_value_5 and note).
const ECHOES = new Set(["payment.user_value_5", "payment.note"]);

function call(store: EbanxStore, path: string, body: unknown): any {
  const r = serveApi(store, KEY, base, path, body);
  assert.ok("status" in r, `${path} answered`);
  return parseExactJson(jsonText(r.body));
}
const missing = (answer: unknown, documented: unknown) => {
  const have = new Set(fieldPaths(answer));
  return fieldPaths(documented).filter((p) => !have.has(p) && !ECHOES.has(p));
};
const direct = (code: string, type: string, country: string, currency: string) => ({ integration_key: KEY, operation: "request", mode: "full", payment: { name: "Ana", email: "a@x.co", document: "85351346893", country, payment_type_code: type, merchant_payment_code: code, currency_code: currency, amount_total: "100.00" } });

test("Direct answers carry every field of EBANX's published answers, per rail", () => {
  const store = new EbanxStore();
  for (const [type, country, currency, name] of [["pix", "br", "BRL", "direct-pix.json"], ["boleto", "br", "BRL", "direct-boleto.json"], ["oxxo", "mx", "MXN", "direct-oxxo.json"], ["spei", "mx", "MXN", "direct-spei.json"]] as const) {
    const a = call(store, "/ws/direct", direct(`tx_${type}`, type, country, currency));
    const documented = fixture(name).response;
    // PixTest's answer has a redirect_url beside the payment; the Direct PIX answer we send has the QR code instead.
    if (type === "pix") delete documented.redirect_url;
    assert.deepEqual(missing(a, documented), [], type);
  }
});

test("the Payment Page, query, refund and payout answers carry their documented fields", () => {
  const store = new EbanxStore();
  const page = call(store, "/ws/request", { integration_key: KEY, name: "Ana", email: "a@x.co", country: "br", payment_type_code: "_creditcard", merchant_payment_code: "tx_page", currency_code: "BRL", amount: "10.00" });
  assert.deepEqual(missing(page, fixture("request-page.json").response), []);
  call(store, "/ws/direct", direct("tx_q", "boleto", "br", "BRL"));
  store.paymentOf("tx_q")!.status = "CO";
  const refund = call(store, "/ws/refund", { integration_key: KEY, operation: "request", hash: store.paymentOf("tx_q")!.hash, merchant_refund_code: "clm_1", amount: "10.00", description: "d" });
  assert.deepEqual(missing(refund, fixture("refund.json").response).filter((p) => !p.startsWith("payment.")), []);
  const query = call(store, "/ws/query", { integration_key: KEY, merchant_payment_code: "tx_q" });
  assert.deepEqual(missing(query, fixture("query.json").response).filter((p) => !/^payment\.(boleto|pix)/.test(p)), []);
  const created = call(store, "/ws/payout/create", { integration_key: KEY, external_reference: "po_000001", country: "br", amount: "10.00", currency_code: "BRL", target: "pix_key", target_account: "12345678901", payee: { name: "A", email: "p@x.co", document: "85351346893", document_type: "CPF" } });
  assert.deepEqual(missing(created, fixture("payout-create.json").response).filter((p) => !p.startsWith("payout.payee.")), []);
  const retrieved = call(store, "/ws/payout/retrieve", { integration_key: KEY, external_reference: "po_000001" });
  assert.deepEqual(missing(retrieved, fixture("payout-retrieve.json").response).filter((p) => !p.startsWith("payout.payee.")), []);
  assert.deepEqual(missing(call(store, "/ws/merchantIntegrationProperties/get", { integration_key: KEY }), fixture("merchant-properties.json").response), []);
});

test("a body without the integration key, or with another, gets EBANX's own errors", () => {
  const store = new EbanxStore();
  const errors = fixture("errors.json");
  assert.deepEqual(call(store, "/ws/query", { hash: "h" }), errors.missing_key);
  assert.deepEqual(call(store, "/ws/query", { integration_key: "other", hash: "h" }), errors.invalid_key);
});
