// The EBANX connector against the simulator, in process: the flows no single answer shows (a
// repeat read back, a refund or payout never sent twice, an open payout committed on re-send, the
// notice id), and the outcome kinds of lost answers and refused keys.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EbanxConnector } from "../../../lib/providers/ebanx/connector.ts";
import { ebanxNoticeKeys, startEbanxSimulator, type EbanxSimulator } from "./simulator.ts";
import type { ProviderConfig } from "../../../lib/providers/registry.ts";

const KEY = "test_ik_connector_0123456789";
let sim: EbanxSimulator;
let keys: { privateKey: string; publicKey: string };
// 3 s: the first call of a cold simulator on a loaded 2-core machine took over 800 ms (a false unavailable).
const config = (over: Partial<ProviderConfig> = {}): ProviderConfig => ({ code: "ebanx", kind: "real", baseUrl: sim.url, secret: KEY, noticeSecret: keys.publicKey, timeoutMs: 3000, rails: null, ...over });
const ebanx = (over: Partial<ProviderConfig> = {}) => new EbanxConnector(config(over));
const control = async (path: string, body: unknown = {}) => (await fetch(`${sim.url}/_control/${path}`, { method: "POST", body: JSON.stringify(body) })).json() as Promise<any>;
const requests = async (path: string) => (await (await fetch(`${sim.url}/_control/requests?path=${path}`)).json()).requests as any[];
const pix = (id: string, email = "buyer@example.com") => ({ transactionId: id, rail: { paymentMethodId: "1001" } as any, amountLocalMinor: 10050n, currency: "BRL", buyer: { name: "Ana", email, documentId: "85351346893" }, notifyUrl: "" });
const notice = (hash: string, type = "update") => {
  const rawBody = `operation=payment_status_change&notification_type=${type}&hash_codes=${hash}`;
  return { rawBody, url: new URL("http://x.test/n"), now: new Date(), headers: new Headers() };
};

before(async () => {
  keys = ebanxNoticeKeys();
  sim = await startEbanxSimulator({ secret: KEY, noticeSecret: keys.privateKey, noticeUrl: "http://127.0.0.1:9/unused" });
});
after(() => sim.stop());

test("a repeated merchant_payment_code is read back, not declined: the same payment answers", async () => {
  const first = await ebanx().createCharge(pix("tx_repeat"));
  const again = await ebanx().createCharge(pix("tx_repeat"));
  assert.equal(first.kind, "accepted");
  assert.deepEqual(again, first);
  assert.deepEqual(await ebanx().chargeByReference("tx_nobody"), { kind: "not_found" });
});

test("lost answers are unavailable or unknown, a refused key is not a decline", async () => {
  await control("behaviour", { forEmail: "slow@example.com", mode: "timeout" });
  assert.deepEqual(await ebanx().createCharge(pix("tx_slow", "slow@example.com")), { kind: "unavailable", reason: "timeout" });
  assert.deepEqual(await ebanx({ secret: "test_ik_another_key_000" }).createCharge(pix("tx_key")), { kind: "unavailable", reason: "credentials_refused" });
  assert.deepEqual(await ebanx({ secret: "test_ik_another_key_000" }).checkCredentials(), { kind: "credentials_refused", detail: "BP-SA-2" });
  assert.deepEqual(await ebanx().checkCredentials(), { kind: "ok" });
  assert.equal((await ebanx({ baseUrl: "http://127.0.0.1:9" }).checkCredentials()).kind, "unreachable");
});

test("a refund asked twice (its answer lost) is sent once: the payment's refunds carry our claim id", async () => {
  const c = (await ebanx().createCharge(pix("tx_refund"))) as any;
  await control(`payments/${c.providerRef}/pay`, { notify: false });
  const req = { reference: "clm_twice", providerRef: c.providerRef, amountLocalMinor: 5025n };
  // Requested (RE) at EBANX: cancellable still, so not done; asked again, it is found, never re-sent.
  assert.equal((await ebanx().refund(req)).kind, "unknown");
  assert.equal((await ebanx().refund(req)).kind, "unknown");
  assert.equal((await requests("/ws/refund")).filter((r) => r.body.merchant_refund_code === "clm_twice").length, 1);
  assert.equal((await requests("/ws/refund")).at(-1).body.amount, "50.25");
  assert.deepEqual(await ebanx().refundStatus("clm_twice", c.providerRef), { kind: "processing" });
  await control(`payments/${c.providerRef}/refund-confirm`, {});
  assert.deepEqual(await ebanx().refundStatus("clm_twice", c.providerRef), { kind: "refunded" });
  assert.deepEqual(await ebanx().refundStatus("clm_other", c.providerRef), { kind: "not_found" });
  assert.equal((await ebanx().refundStatus("clm_twice")).kind, "unknown");
});

test("payouts: a re-send under the same reference never creates a second payout, and commits one left open", async () => {
  const req = { reference: "po_resend01", rail: "spei", country: "MEX", currency: "MXN", amount: 50000n, recipient: { name: "Carlos", account: "002180012345678901", documentId: "GODE561231GR8", email: "payee@example.com" }, notifyUrl: "" };
  await control("behaviour", { forEmail: "payee@example.com", mode: "unknown" });
  assert.deepEqual(await ebanx().payout(req), { kind: "unknown", reason: "timeout" });
  assert.equal((await ebanx().payoutStatus(req.reference)).kind, "processing");
  await control(`payouts/${req.reference}/pay`, { notify: false });
  const again = await ebanx().payout(req);
  assert.equal(again.kind, "accepted");
  assert.equal((await requests("/ws/payout/create")).filter((r) => r.body.external_reference === req.reference).length, 2);
  assert.equal((await ebanx().payoutStatus(req.reference)).kind, "paid");
  assert.deepEqual(await ebanx().payoutStatus("po_nobody1"), { kind: "not_found" });
  // Created, its answer lost before the commit: open at EBANX, so not sent yet; the re-send commits it.
  const open = { ...req, reference: "po_open0001", recipient: { ...req.recipient, email: "open@example.com" } };
  await control("behaviour", { forEmail: "open@example.com", mode: "succeed_then_timeout", times: 1 });
  assert.deepEqual(await ebanx().payout(open), { kind: "unknown", reason: "timeout" });
  assert.deepEqual(await ebanx().payoutStatus(open.reference), { kind: "not_found" });
  assert.equal((await ebanx().payout(open)).kind, "accepted");
  assert.equal((await ebanx().payoutStatus(open.reference)).kind, "processing");
  assert.equal((await requests("/ws/payout/commit")).length >= 1, true);
});

test("notices: verified first; the id is what was read back, so the same change has the same id and a new one another", async () => {
  const c = (await ebanx().createCharge(pix("tx_notice"))) as any;
  const signed = (n: ReturnType<typeof notice>) => {
    const h = new Headers(Object.entries(sim.noticeHeaders(n.rawBody)));
    return { ...n, headers: h };
  };
  assert.deepEqual(await ebanx().readNotice(notice(c.providerRef)), { kind: "refused", check: "missing" });
  const pending = await ebanx().readNotice(signed(notice(c.providerRef)));
  await control(`payments/${c.providerRef}/pay`, { notify: false });
  const paid = await ebanx().readNotice(signed(notice(c.providerRef)));
  const paidAgain = await ebanx().readNotice(signed(notice(c.providerRef)));
  assert.equal(pending.kind === "verified" && paid.kind === "verified" && pending.noticeId !== paid.noticeId, true);
  assert.deepEqual(paidAgain, paid);
  assert.deepEqual(paid.kind === "verified" && paid.subjects, [{ kind: "charge", providerRef: c.providerRef }]);
  const po = await ebanx().payout({ reference: "po_notice01", rail: "pix", country: "BRA", currency: "BRL", amount: 1000n, recipient: { name: "Ana", account: "a@x.co", accountType: "EMAIL", documentId: "85351346893" }, notifyUrl: "" });
  assert.equal(po.kind, "accepted");
  const poNotice = await ebanx().readNotice(signed(notice((po as any).providerRef)));
  assert.deepEqual(poNotice.kind === "verified" && poNotice.subjects, [{ kind: "payout", reference: "po_notice01" }]);
  // EBANX not answering the read-back: a 503, so EBANX delivers again.
  await assert.rejects(ebanx({ baseUrl: "http://127.0.0.1:9" }).readNotice(signed(notice(c.providerRef))), /did not answer/);
});

test("without the notification certificate, an unsigned notice is only a hint: read back, the read-back decides", async () => {
  const c = (await ebanx().createCharge(pix("tx_unsigned"))) as any;
  await control(`payments/${c.providerRef}/pay`, { notify: false });
  const uncertified = ebanx({ noticeSecret: null });
  const read = await uncertified.readNotice(notice(c.providerRef));
  assert.deepEqual(read.kind === "verified" && read.subjects, [{ kind: "charge", providerRef: c.providerRef }]);
  // The same notice is the same read-back: one id, so a replay is recorded once.
  assert.deepEqual(await uncertified.readNotice(notice(c.providerRef)), read);
  // A hash EBANX does not know names nothing.
  const unknown = await uncertified.readNotice(notice("0123456789abcdef0123456789abcdef0123456789abcdef"));
  assert.deepEqual(unknown.kind === "verified" && unknown.subjects, []);
});
