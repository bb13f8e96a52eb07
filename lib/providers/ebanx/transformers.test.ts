// Contract checks against EBANX's published examples (./fixtures/, each naming its page): the
// bodies we build use only documented fields, and our parsers read the documented answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, sign } from "node:crypto";
import { exactJsonBody, directBody, pageBody, queryBody, refundBody, chargeAnswer, readBackOf, statusOf, refundAnswer, refundStatusOf, RAILS } from "@/lib/providers/ebanx/transformers";
import { EbanxConnector } from "@/lib/providers/ebanx/connector";
import { payoutCreateBody, payoutCommitBody, payoutRetrieveBody, payoutCreateAnswer, payoutStatusOf } from "@/lib/providers/ebanx/payouts";
import { checkNoticeSignature, noticeKey, parseNoticeBody } from "@/lib/providers/ebanx/notices";
import { parseExactJson } from "@/lib/providers/ebanx/exact-json";
import { fixture, undocumentedFields } from "@/lib/providers/ebanx/contract";
import type { ChargeRequest } from "@/lib/providers/types";

const charge = (railId: string, over: Partial<ChargeRequest> = {}): ChargeRequest => ({ transactionId: "tx_1", rail: { paymentMethodId: railId } as any, amountLocalMinor: 10050n, currency: "BRL", buyer: { name: "José Silva", email: "jose@example.com", documentId: "853.513.468-93", phone: "+5585999990000" }, notifyUrl: "https://x.test/n", ...over });
const body = (b: unknown) => parseExactJson(exactJsonBody(b));
const answer = (name: string) => ({ status: 200, body: fixture(name).response });

test("each request body uses only the fields of EBANX's documented example", () => {
  for (const railId of ["1001", "1002", "1003", "1004"]) assert.deepEqual(undocumentedFields(body(directBody(charge(railId), "k", RAILS[railId]!)), fixture("direct-request.json").request), [], railId);
  for (const railId of ["1005", "1006", "1007"]) assert.deepEqual(undocumentedFields(body(pageBody(charge(railId), "k", RAILS[railId]!)), fixture("request-page.json").request), [], railId);
  assert.deepEqual(undocumentedFields(queryBody("k", { hash: "h" }), fixture("query.json").request), []);
  assert.deepEqual(undocumentedFields(queryBody("k", { merchant_payment_code: "tx_1" }), fixture("query.json").request), []);
  assert.deepEqual(undocumentedFields(body(refundBody({ reference: "clm_1", providerRef: "h", amountLocalMinor: 1023n }, "k", "BRL")), fixture("refund.json").request), []);
  const pix = { reference: "po_1234567", rail: "pix", country: "BRA", currency: "BRL", amount: 12345n, recipient: { name: "Ana", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF", email: "a@x.co" }, notifyUrl: "" };
  const spei = { ...pix, rail: "spei", country: "MEX", currency: "MXN", recipient: { name: "Carlos", account: "002180012345678901", bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC" } };
  for (const req of [pix, spei]) assert.deepEqual(undocumentedFields(body(payoutCreateBody(req, "k")), fixture("payout-create.json").request), [], req.rail);
  assert.deepEqual(undocumentedFields(payoutCommitBody("k", "uid"), fixture("payout-retrieve.json").request), []);
  assert.deepEqual(undocumentedFields(payoutRetrieveBody("k", "po_1"), fixture("payout-retrieve.json").request), []);
});

test("the check catches a field the reference does not have (a planted one fails)", () => {
  const planted = { ...directBody(charge("1001"), "k", RAILS["1001"]!), payment: { ...directBody(charge("1001"), "k", RAILS["1001"]!).payment, amount_cents: 10050 } };
  assert.deepEqual(undocumentedFields(body(planted), fixture("direct-request.json").request), ["payment.amount_cents"]);
});

test("amounts: bigint minor units go out as exact JSON numbers, answers are read without a float", () => {
  const b = exactJsonBody(directBody(charge("1001", { amountLocalMinor: 1234567890123457n }), "k", RAILS["1001"]!));
  assert.match(b, /"amount_total":12345678901234\.57[,}]/);
  assert.deepEqual(parseExactJson("[1e2, 0]"), ["1e2", "0"]);
  assert.deepEqual(parseExactJson('{"a":103.50,"b":"48.81","c":[-0.1],"d":"x\\"1.5"}'), { a: "103.50", b: "48.81", c: ["-0.1"], d: 'x"1.5' });
  // PixTest's amount_ext is a bare number (100), BoletoTest's a string ("48.63"): both exact.
  assert.deepEqual([readBackOf(answer("direct-pix.json")), readBackOf(answer("direct-boleto.json"))].map((r) => r.kind === "found" && [r.amountMinor, r.currency]), [[10000n, "BRL"], [4863n, "BRL"]]);
});

test("the documented Direct answers give the buyer's instructions under our keys; a redirect is the page", () => {
  const out = (name: string) => chargeAnswer(answer(name));
  assert.deepEqual(out("direct-pix.json"), { kind: "accepted", providerRef: "6006eda8694708f8032b19911e86d4a904cfe8e9b35303bd", paymentFormUrl: "https://checkout.ebanx.com/checkout?hash=6006eda8694708f8032b19911e86d4a904cfe8e9b35303bd", instructions: { pixCode: fixture("direct-pix.json").response.payment.pix.qr_code_value } });
  const boleto = out("direct-boleto.json") as any;
  assert.deepEqual([boleto.instructions.line, boleto.instructions.barcode], ["34191760071244348372714245740007871600000004881", "34198716000000048811760012443483721424574000"]);
  assert.equal((out("direct-oxxo.json") as any).instructions.barcode, "51000000000020022017052601362015");
  assert.deepEqual([(out("direct-spei.json") as any).instructions.clabe, (out("direct-spei.json") as any).instructions.reference], ["646181141900000339", "4262291"]);
  assert.equal((out("redirect-eft.json") as any).paymentFormUrl, "https://sandbox.ebanx.com/ws/simulator/confirm?hash=592c75608acb71e6f460627e5b8a3b0a9cbe98252139ecf6");
  assert.equal((out("request-page.json") as any).paymentFormUrl, "https://sandbox.ebanx.com/ws/directtefredirect/?hash=5928c60eaa72a35e9f6518d84d35fb270e0a79718fc1feb9");
});

test("errors: a repeat is 'already exists', an explicit refusal a decline, anything else unavailable", () => {
  const errors = fixture("errors.json");
  const of = (b: unknown, status = 200) => chargeAnswer({ status, body: b });
  assert.deepEqual(of(errors.duplicate), { kind: "duplicate" });
  assert.deepEqual(of(errors.not_active), { kind: "declined", reason: "BP-CH-1", message: "Payment type group is not active: pix" });
  assert.deepEqual(of(errors.invalid_key), { kind: "unavailable", reason: "credentials_refused" });
  assert.deepEqual(of(errors.missing_key), { kind: "unavailable", reason: "credentials_refused" });
  assert.deepEqual(of(errors.missing_field), { kind: "unavailable", reason: "ebanx_BP-DR-5" });
  assert.deepEqual(of(undefined, 502), { kind: "unavailable", reason: "unreadable_answer_502" });
  assert.deepEqual(of({ status: "SUCCESS" }), { kind: "unavailable", reason: "unreadable_answer_200" });
});

test("status words: OP and PE pending, CO paid (refunded once confirmed refunds cover it), CA failed or expired past its due date", () => {
  const now = new Date("2026-12-02T12:00:00Z");
  assert.deepEqual(["OP", "PE", "CO", "XX"].map((status) => statusOf({ status, amount_ext: "10.00", currency_ext: "BRL" }, now)), ["pending", "pending", "paid", null]);
  assert.equal(statusOf({ status: "CA", due_date: "2026-12-05" }, now), "failed");
  assert.equal(statusOf({ status: "CA", due_date: "2026-11-30" }, now), "expired");
  assert.equal(statusOf({ status: "CO", amount_ext: "80.00", currency_ext: "USD", refunds: [{ status: "CO", amount_ext: "80.00" }] }, now), "refunded");
  // RefundTest's payment: confirmed, its two refunds only requested.
  const q = readBackOf(answer("query.json"));
  assert.deepEqual(q, { kind: "found", providerRef: "59386e0a5f258ffed3bee6fecc9150f916d1e19aa50ec68c", reference: "145000015-1496870409", status: "paid", amountMinor: 8000n, currency: "USD" });
  assert.deepEqual(readBackOf({ status: 200, body: { status: "ERROR", status_code: "BP-QL-1", status_message: "Payment not found" } }), { kind: "not_found" });
  assert.equal(readBackOf({ status: 503, body: undefined }).kind, "unknown");
});

test("refunds: the documented answer is a refund EBANX took; its status is found again by merchant_refund_code", () => {
  // RefundTest's refund is RE (requested): EBANX took it, and it can still be cancelled.
  assert.deepEqual(refundAnswer(answer("refund.json")), { kind: "unknown", reason: "refund_RE" });
  assert.deepEqual(refundAnswer({ status: 200, body: { status: "ERROR", status_code: "BP-REF-7", status_message: "not confirmed" } }), { kind: "refused", reason: "BP-REF-7" });
  assert.deepEqual(refundAnswer({ status: 500, body: undefined }), { kind: "unknown", reason: "unreadable_answer_500" });
  const withMine = { status: 200, body: { status: "SUCCESS", payment: { refunds: [{ merchant_refund_code: "clm_1", status: "CO" }, { merchant_refund_code: "clm_2", status: "CA" }] } } };
  assert.deepEqual(["clm_1", "clm_2", "clm_3"].map((r) => refundStatusOf(withMine, r).kind), ["refunded", "rejected", "not_found"]);
});

test("payouts: the documented create answer is open, the retrieve answer paid; HP- errors refuse, HP-CM-03 is ours", () => {
  assert.deepEqual(payoutCreateAnswer(answer("payout-create.json")), { kind: "created", uid: "a1352f5341c3c8c1e40ea9c06715f05778ff35ee", status: "OP" });
  assert.deepEqual(payoutStatusOf(answer("payout-retrieve.json")), { kind: "paid", providerRef: "0f28f5b2bf60536d78b2dbf003c13886dd452d926" });
  assert.deepEqual(payoutStatusOf(answer("payout-create.json")), { kind: "not_found" }); // open: never committed
  const errors = fixture("payout-errors.json");
  assert.deepEqual(payoutCreateAnswer({ status: 200, body: errors.empty_amount }), { kind: "refused", reason: "HP-CM-09" });
  assert.deepEqual(payoutCreateAnswer({ status: 200, body: errors.duplicate }), { kind: "duplicate" });
  assert.deepEqual(payoutCreateAnswer({ status: 504, body: undefined }), { kind: "unknown", reason: "unreadable_answer_504" });
  const cancelled = (paid_date: string | null) => payoutStatusOf({ status: 200, body: { type: "success", payout: { uid: "u", status: "CA", paid_date } } }).kind;
  assert.deepEqual([cancelled(null), cancelled("2026-12-01 10:00:00")], ["rejected", "returned"]);
});

test("notices: RSA-SHA1 over the raw body with EBANX's certificate; the documented body names its hashes", () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = noticeKey(publicKey.export({ type: "spki", format: "pem" }).toString().replace(/\n/g, "\\n"));
  const n = fixture("notification.json");
  const signed = (b: string) => new Headers({ "x-signaturetype": "rsa,sha1", "x-signaturecontent": sign("sha1", Buffer.from(b), privateKey).toString("base64") });
  assert.equal(checkNoticeSignature(key, n.body, signed(n.body)), "ok");
  assert.equal(checkNoticeSignature(key, `${n.body},aaa`, signed(n.body)), "invalid");
  assert.equal(checkNoticeSignature(key, n.body, new Headers()), "missing");
  assert.equal(checkNoticeSignature(key, n.body, new Headers({ "x-signaturecontent": n.headers["X-SignatureContent"] })), "invalid");
  assert.equal(checkNoticeSignature(null, n.body, signed(n.body)), "invalid");
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  assert.equal(checkNoticeSignature(key, n.body, new Headers({ "x-signaturecontent": sign("sha1", Buffer.from(n.body), other).toString("base64") })), "invalid");
  assert.deepEqual(parseNoticeBody(n.body), { operation: "payment_status_change", type: "update", hashes: ["53ad936c0dfb7b008d57bf7d396c83a28d24869949fdc84f", "cc6d7065bd3842c9fd56f993dba4d900b428d9373878aff8"] });
  assert.equal(parseNoticeBody("operation=payment_status_change&notification_type=update"), null);
});

const err = (status_code: string, status_message = "x") => ({ status: 200, body: { status: "ERROR", status_code, status_message } });

test("not_found only on EBANX's not-found code: a message saying 'not found' (a missing key, a route, a proxy) is unknown", () => {
  assert.equal(readBackOf(err("BP-SA-1", "Parameter integration_key not found")).kind, "unknown");
  assert.equal(readBackOf(err("BP-SA-0", "Not found")).kind, "unknown");
  assert.equal(readBackOf({ status: 404, body: { message: "Not found" } }).kind, "unknown");
  assert.equal(refundStatusOf(err("BP-SA-2", "not found"), "clm_1").kind, "unknown");
  assert.deepEqual(payoutStatusOf({ status: 200, body: { type: "invalid_request_error", message: "Payout not found", code: "HP-CM-30", status_code: "HP-CM-30" } }), { kind: "not_found" });
  assert.equal(payoutStatusOf({ status: 200, body: { type: "invalid_request_error", message: "Route not found", code: "HP-XX-1" } }).kind, "unknown");
  assert.equal(payoutStatusOf({ status: 404, body: { message: "Not found" } }).kind, "unknown");
});

test("payout and refund errors: only the allow-listed refusal codes refuse; every other code is unknown", () => {
  const perr = (code: string) => ({ status: 200, body: { type: "invalid_request_error", message: "x", status_code: code, code } });
  for (const c of ["HP-CM-01", "HP-CM-09", "HP-BR-02", "HP-BR-03"]) assert.deepEqual(payoutCreateAnswer(perr(c)), { kind: "refused", reason: c }, c);
  for (const c of ["HP-CM-30", "HP-CM-99", "HP-XB-05", "HP-BR-X"]) assert.equal(payoutCreateAnswer(perr(c)).kind, "unknown", c);
  assert.deepEqual(refundAnswer(err("BP-REF-7")), { kind: "refused", reason: "BP-REF-7" });
  assert.deepEqual(refundAnswer(err("BP-REF-99")), { kind: "unknown", reason: "ebanx_BP-REF-99" });
  assert.deepEqual(refundAnswer(err("BP-SA-2")), { kind: "unknown", reason: "credentials_refused" });
});

test("refund words: RE and PE are still processing (cancellable), only CO is refunded; an unknown word is unknown", () => {
  const q = (status: string) => ({ status: 200, body: { status: "SUCCESS", payment: { currency_ext: "BRL", refunds: [{ merchant_refund_code: "clm_1", status, amount_ext: "10.00" }] } } });
  assert.deepEqual(["RE", "PE", "CO", "CA", "ZZ"].map((w) => refundStatusOf(q(w), "clm_1").kind), ["processing", "processing", "refunded", "rejected", "unknown"]);
  const answerOf = (status: string) => refundAnswer({ status: 200, body: { status: "SUCCESS", refund: { id: "1", merchant_refund_code: "clm_1", status } } });
  assert.deepEqual(["RE", "PE", "CO", "CA", "ZZ"].map((w) => answerOf(w).kind), ["unknown", "unknown", "refunded", "refused", "unknown"]);
});

test("a refund naming no claim, of our amount, may be ours: unknown, never not_found (EBANX has no refund idempotency)", () => {
  const q = (refunds: unknown[]) => ({ status: 200, body: { status: "SUCCESS", payment: { currency_ext: "BRL", refunds } } });
  assert.deepEqual(refundStatusOf(q([{ merchant_refund_code: null, status: "CO", amount_ext: "10.00" }]), "clm_1", 1_000n), { kind: "unknown", reason: "unattributed_refund" });
  assert.deepEqual(refundStatusOf(q([{ status: "RE", amount_ext: "10.00" }]), "clm_1"), { kind: "unknown", reason: "unattributed_refund" });
  assert.deepEqual(refundStatusOf(q([{ merchant_refund_code: "", status: "CO", amount_ext: "12.00" }]), "clm_1", 1_000n), { kind: "not_found" });
  assert.deepEqual(refundStatusOf(q([{ merchant_refund_code: "clm_other", status: "CO", amount_ext: "10.00" }]), "clm_1", 1_000n), { kind: "not_found" });
});

/** A scripted EBANX (fetch replaced) answering each path from `routes`; `sent` counts the calls. */
function ebanx(routes: Record<string, unknown>) {
  const sent: string[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = (async (url: string) => {
    const path = new URL(url).pathname;
    sent.push(path);
    return new Response(JSON.stringify(routes[path] ?? { status: "ERROR", status_code: "BP-SA-0", status_message: "Not found" }), { status: 200 });
  }) as typeof fetch;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const c = new EbanxConnector({ code: "ebanx", kind: "real", baseUrl: "https://ebanx.test", secret: "integration_key_0000", noticeSecret: publicKey.export({ type: "spki", format: "pem" }).toString(), timeoutMs: 1000, rails: null });
  const notice = (body: string) => ({ rawBody: body, headers: new Headers({ "x-signaturetype": "rsa,sha1", "x-signaturecontent": sign("sha1", Buffer.from(body), privateKey).toString("base64") }), url: new URL("https://us.test/n"), now: new Date() });
  return { c, sent, notice, restore: () => (globalThis.fetch = real) };
}

test("connector refund: no re-POST while the payment lists our refund queued, or a refund naming no claim of the same amount", async () => {
  const payment = (refunds: unknown[]) => ({ status: "SUCCESS", payment: { hash: "h1", status: "CO", currency_ext: "BRL", amount_ext: "100.00", refunds } });
  for (const refunds of [[{ merchant_refund_code: "clm_1", status: "RE", amount_ext: "10.00" }], [{ merchant_refund_code: null, status: "CO", amount_ext: "10.00" }]]) {
    const e = ebanx({ "/ws/query": payment(refunds) });
    try {
      const out = await e.c.refund({ reference: "clm_1", providerRef: "h1", amountLocalMinor: 1_000n });
      assert.equal(out.kind, "unknown");
      assert.deepEqual(e.sent, ["/ws/query"], "nothing sent to /ws/refund");
    } finally {
      e.restore();
    }
  }
  const e = ebanx({ "/ws/query": payment([]), "/ws/refund": { status: "SUCCESS", refund: { id: "9", merchant_refund_code: "clm_1", status: "CO" } } });
  try {
    assert.deepEqual(await e.c.refund({ reference: "clm_1", providerRef: "h1", amountLocalMinor: 1_000n }), { kind: "refunded", providerRef: "9" });
  } finally {
    e.restore();
  }
});

test("connector notice: a read-back answered ERROR with any code but not-found is no answer (503, delivered again), never recorded", async () => {
  const body = "operation=payment_status_change&notification_type=update&hash_codes=h1";
  let e = ebanx({ "/ws/query": { status: "ERROR", status_code: "BP-SA-2", status_message: "Invalid integration key" } });
  try {
    await assert.rejects(Promise.resolve(e.c.readNotice(e.notice(body))), (x: any) => x?.code === "service_unavailable");
  } finally {
    e.restore();
  }
  // Not a payment, and the payout retrieve answers an error that is not EBANX's not-found: no answer either.
  e = ebanx({ "/ws/query": { status: "ERROR", status_code: "BP-QL-1", status_message: "Payment not found" }, "/ws/payout/retrieve": { type: "invalid_request_error", code: "HP-XX-9", message: "rate limited" } });
  try {
    await assert.rejects(Promise.resolve(e.c.readNotice(e.notice(body))), (x: any) => x?.code === "service_unavailable");
  } finally {
    e.restore();
  }
  // Both say they have no such thing: acknowledged, naming nothing.
  e = ebanx({ "/ws/query": { status: "ERROR", status_code: "BP-QL-1", status_message: "Payment not found" }, "/ws/payout/retrieve": { type: "invalid_request_error", code: "HP-CM-30", status_code: "HP-CM-30", message: "Payout not found" } });
  try {
    const r = await e.c.readNotice(e.notice(body));
    assert.equal(r.kind, "verified");
    assert.deepEqual((r as any).subjects, []);
  } finally {
    e.restore();
  }
});
