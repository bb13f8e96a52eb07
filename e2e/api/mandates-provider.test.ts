// Production recurring PIX at a PSP over real HTTP: the simulated PSP (pagosur, a separate HTTP
// service speaking Brazil's API Pix: /locrec, /rec, /cobr, /pix/{e2eid}/devolucao, its notices
// to /api/v1/providers/pagosur/pix/{rec|cobr}) holds each mandate's recurrence and each due
// date's CobR; its control API plays the payer's bank. The mandate job runs in this process on a
// future clock, scoped to the test's merchant (as mandates.test.ts runs it).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor, API_URL } from "./helpers.ts";
import { psp, buyerEmail } from "./psp.ts";
import { db } from "@/lib/platform/db";
import { day, noonOf } from "./mandates-fixtures.ts";
import { setRate } from "@/lib/money/rates";
import { runMandates } from "@/lib/mandates/send-due-charges";
import { cobrTxid } from "@/lib/mandates/charge-payment-id";

before(() => setRate("BRL", "5.00", "test"));
after(() => db().$disconnect());


type Ctx = { key: string; merchantId: string; email: string };
async function merchant(): Promise<Ctx> {
  const m = await newMerchant();
  return { key: m.production.secretKey, merchantId: m.merchantId, email: buyerEmail("payer") };
}
async function pendingMandate(c: Ctx, body: Record<string, unknown> = {}) {
  const r = await api("/mandates", { key: c.key, body: { amount: 49.9, period: "monthly", startDate: day(15), endDate: day(100), customer: { name: "Ana Souza", email: c.email, documentId: "529.982.247-25" }, description: "Plano Família", ...body } });
  assert.equal(r.status, 201, r.text);
  const row = await db().mandate.findUniqueOrThrow({ where: { id: r.body.mandate.id } });
  assert.equal(row.provider, "pagosur");
  assert.match(row.providerRef!, /^RR12345678\d{8}[a-zA-Z0-9]{11}$/, "an idRec that allows retries (PERMITE_3R_7D)");
  return { mandate: r.body.mandate, idRec: row.providerRef! };
}
const mandateOf = async (c: Ctx, id: string) => (await api(`/mandates/${id}`, { key: c.key })).body.mandate;
const chargesOf = async (c: Ctx, id: string) => (await api(`/mandates/${id}/charges`, { key: c.key })).body.data as any[];
async function activeMandate(c: Ctx) {
  const m = await pendingMandate(c);
  const ok = await psp("pagosur", `/_control/pix/rec/${m.idRec}/approve`, {});
  assert.deepEqual(ok.statuses, [200], "the PSP's notice was taken");
  await waitFor(async () => (await mandateOf(c, m.mandate.id)).status === "active", "the mandate authorized by the PSP's notice");
  return m;
}
async function scheduleAndSend(c: Ctx, mandateId: string, dueDate: string) {
  assert.equal((await api(`/mandates/${mandateId}/charges`, { key: c.key, body: { dueDate } })).status, 201);
  const run = await runMandates({ now: noonOf(dueDate, -5), merchantId: c.merchantId });
  assert.equal(run.sent, 1, JSON.stringify(run));
  return (await chargesOf(c, mandateId)).find((x) => x.dueDate === dueDate);
}
const paymentOf = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });

test("a production mandate's recurrence lives at the PSP: its QR on the payer's page, authorized in the bank, a charge sent as a CobR, paid, and refunded as a devolução", async () => {
  const c = await merchant();
  const { mandate, idRec } = await pendingMandate(c);
  const rec = await psp("pagosur", `/_control/pix/rec/${idRec}`);
  assert.equal(rec.status, "CRIADA");
  assert.equal(rec.calendario.periodicidade, "MENSAL");
  assert.equal(rec.valor.valorRec, "49.90");
  assert.equal(rec.politicaRetentativa, "PERMITE_3R_7D");
  assert.deepEqual(rec.vinculo.devedor, { cpf: "52998224725", nome: "Ana Souza" });
  // The payer's page shows the PSP's own code (JORNADA_2): the recurrence's location in field 80.
  const page = await (await fetch(mandate.authorizationUrl.replace(/^https?:\/\/[^/]+/, API_URL))).text();
  assert.ok(page.includes(rec.dadosQR.pixCopiaECola.replace(/&/g, "&amp;")), "the PSP's pixCopiaECola is on the page");
  assert.match(rec.dadosQR.pixCopiaECola, /80\d\d0014br\.gov\.bcb\.pix25\d\d.*\/qr\/v2\/rec\//);

  await psp("pagosur", `/_control/pix/rec/${idRec}/approve`, {});
  await waitFor(async () => (await mandateOf(c, mandate.id)).status === "active", "authorized by the notice");
  const events = await db().event.findMany({ where: { merchantId: c.merchantId, type: "mandate.authorized" } });
  assert.equal(events.length, 1);

  const due = day(20);
  const charge = await scheduleAndSend(c, mandate.id, due);
  assert.equal(charge.status, "sent");
  const txid = cobrTxid(mandate.id, due);
  const cobr = await psp("pagosur", `/_control/pix/cobr/${txid}`);
  assert.equal(cobr.idRec, idRec);
  assert.equal(cobr.status, "ATIVA");
  assert.equal(cobr.calendario.dataDeVencimento, due);
  assert.equal(cobr.valor.original, "49.90");
  assert.deepEqual(cobr.tentativas.map((t: any) => t.status), ["AGENDADA"]);
  const pay = await paymentOf(charge.paymentId);
  assert.equal(pay.status, "pending");
  assert.equal(pay.provider, "pagosur");
  assert.equal(pay.providerRef, `cobr:${txid}:1`);
  assert.equal(pay.mandateId, mandate.id);
  // The job run again sends nothing more (one CobR per due date).
  assert.equal((await runMandates({ now: noonOf(due, -4), merchantId: c.merchantId })).claimed, 0);

  // The payer's bank debits on the due date: the PSP's notice completes the payment and pays the charge.
  await psp("pagosur", `/_control/pix/cobr/${txid}/pay`, {});
  await waitFor(async () => (await paymentOf(charge.paymentId)).status === "completed", "the payment completed by the CobR notice");
  assert.equal((await chargesOf(c, mandate.id))[0].status, "paid");

  // A refund goes back to the payer as a devolução of the Pix that paid the CobR.
  const refund = await api(`/payments/${charge.paymentId}/refund`, { key: c.key, body: { amount: 10 } });
  assert.equal(refund.status, 200, refund.text);
  await waitFor(async () => (await db().claim.findUniqueOrThrow({ where: { id: refund.body.refundId } })).status === "resolved", "the refund confirmed by the PSP", 15_000);
  const after = await psp("pagosur", `/_control/pix/cobr/${txid}`);
  assert.equal(after.pix.length, 1);
});

test("a charge refused by the payer's bank is retried as the same CobR's next attempt and paid", async () => {
  const c = await merchant();
  const { mandate } = await activeMandate(c);
  const due = day(25);
  const charge = await scheduleAndSend(c, mandate.id, due);
  const txid = cobrTxid(mandate.id, due);
  await psp("pagosur", `/_control/pix/cobr/${txid}/reject`, {});
  await waitFor(async () => (await paymentOf(charge.paymentId)).status === "failed", "the first attempt failed by the notice");
  assert.equal((await chargesOf(c, mandate.id))[0].status, "retrying");
  // Retried from the due date on, as the CobR's second attempt (POST /cobr/{txid}/retentativa/{date}).
  const run = await runMandates({ now: noonOf(due), merchantId: c.merchantId });
  assert.equal(run.sent, 1, JSON.stringify(run));
  const [retried] = await chargesOf(c, mandate.id);
  assert.equal(retried.attempts, 2);
  assert.notEqual(retried.paymentId, charge.paymentId);
  assert.equal((await paymentOf(retried.paymentId)).providerRef, `cobr:${txid}:2`);
  const cobr = await psp("pagosur", `/_control/pix/cobr/${txid}`);
  assert.deepEqual(cobr.tentativas.map((t: any) => [t.tipo, t.status]), [["AGND", "REJEITADA"], ["RIFL", "SOLICITADA"]]);
  await psp("pagosur", `/_control/pix/cobr/${txid}/pay`, {});
  await waitFor(async () => (await paymentOf(retried.paymentId)).status === "completed", "the retry paid");
  assert.equal((await paymentOf(charge.paymentId)).status, "failed", "the refused attempt stays failed");
  assert.equal((await chargesOf(c, mandate.id))[0].status, "paid");
});

test("the payer cancels in their bank: nothing more is sent; the merchant's cancel is sent to the PSP", async () => {
  const c = await merchant();
  const { mandate, idRec } = await activeMandate(c);
  assert.equal((await api(`/mandates/${mandate.id}/charges`, { key: c.key, body: { dueDate: day(30) } })).status, 201);
  await psp("pagosur", `/_control/pix/rec/${idRec}/cancel`, {});
  await waitFor(async () => (await mandateOf(c, mandate.id)).status === "cancelled", "cancelled by the payer's notice");
  const m = await mandateOf(c, mandate.id);
  assert.equal(m.cancelledBy, "payer");
  assert.equal((await chargesOf(c, mandate.id))[0].status, "cancelled");
  assert.equal((await runMandates({ now: noonOf(day(30), -5), merchantId: c.merchantId })).claimed, 0);

  const other = await activeMandate(c);
  const cancelled = await api(`/mandates/${other.mandate.id}/cancel`, { key: c.key, body: {} });
  assert.equal(cancelled.status, 200, cancelled.text);
  const atPsp = await psp("pagosur", `/_control/pix/rec/${other.idRec}`);
  assert.equal(atPsp.status, "CANCELADA");
  assert.equal(atPsp.encerramento.cancelamento.solicitante, "USUARIO_RECEBEDOR");
  assert.ok((await db().mandate.findUniqueOrThrow({ where: { id: other.mandate.id } })).providerClosedAt);
});

test("a lost notice: the job reads pending recurrences back; a payer's refusal rejects the mandate", async () => {
  const c = await merchant();
  const quiet = await pendingMandate(c);
  await psp("pagosur", `/_control/pix/rec/${quiet.idRec}/approve`, { notify: false });
  assert.equal((await mandateOf(c, quiet.mandate.id)).status, "pending_authorization");
  await runMandates({ merchantId: c.merchantId });
  assert.equal((await mandateOf(c, quiet.mandate.id)).status, "active", "read back from the PSP");

  const refused = await pendingMandate(c);
  await psp("pagosur", `/_control/pix/rec/${refused.idRec}/reject`, {});
  await waitFor(async () => (await mandateOf(c, refused.mandate.id)).status === "rejected", "rejected by the notice");
  // A notice that does not verify is refused before anything is read.
  const forged = await fetch(`${API_URL}/api/v1/providers/pagosur/pix/rec`, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": "t=1,v1=00" }, body: JSON.stringify({ recs: [{ idRec: refused.idRec }] }) });
  assert.equal(forged.status, 401);
});

test("a cancel waits for a send in progress: the charge goes out for a mandate that was active when it left, and none after", async () => {
  const c = await merchant();
  const { mandate } = await activeMandate(c);
  const due = day(20);
  assert.equal((await api(`/mandates/${mandate.id}/charges`, { key: c.key, body: { dueDate: due } })).status, 201);
  // The PSP holds the CobR's answer (its timeout, 1.5 s here): the send is in flight while the merchant cancels.
  await psp("pagosur", "/_control/behaviour", { mode: "timeout", forEmail: c.email, times: 1 });
  const run = runMandates({ now: noonOf(due, -5), merchantId: c.merchantId });
  await waitFor(async () => (await chargesOf(c, mandate.id))[0].status === "sending" && (await db().transaction.count({ where: { mandateId: mandate.id } })) === 1, "the send's payment committed, its provider call in flight");
  const cancel = await api(`/mandates/${mandate.id}/cancel`, { key: c.key, body: {} });
  assert.equal(cancel.status, 200, cancel.text);
  // Answered only once the send had finished: its attempt recorded, its charge with the PSP.
  const [charge] = await chargesOf(c, mandate.id);
  assert.equal(charge.status, "sent", "the charge is with the PSP (its answer was lost: unknown, not failed)");
  const pay = await paymentOf(charge.paymentId);
  assert.equal((pay.attempts as unknown[]).length, 1, "the cancel waited for the provider call");
  assert.equal(pay.status, "pending");
  assert.equal(pay.providerRef, `cobr:${cobrTxid(mandate.id, due)}:1`, "the payment names its CobR though the answer was lost");
  assert.equal((await run).sent, 1);
  assertEnvelope(await api(`/mandates/${mandate.id}/cancel`, { key: c.key, body: {} }), "mandate_not_active", 409);
});
