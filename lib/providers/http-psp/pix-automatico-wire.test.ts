// API Pix's Pix Automático wire format (pix-automatico-wire.ts) against the field names, status
// words and patterns of BCB's openapi.yaml 2.9.0 (schemas RecSolicitada, RecStatus, RecEncerramento,
// CobRSolicitada, CobRTentativas, Devolucao; the RecId and TxId patterns).
import { test } from "node:test";
import assert from "node:assert/strict";
import { attemptStatus, cobrBody, devolucaoId, notFound, paidEndToEndId, recBody, recurrenceQr, recurrenceState, refusalOf } from "@/lib/providers/http-psp/pix-automatico-wire";

const REQ = { mandateId: "mdt_abc", description: "Plano Família com um nome longo demais para o campo", period: "monthly" as const, startDate: "2026-12-20", endDate: null, amountMinor: 4990n, payer: { name: "Ana Souza", documentId: "529.982.247-25" }, notifyUrl: "https://app.example/api/v1/providers/pagosur/pix" };

test("RecSolicitada: vinculo, calendario, valor.valorRec with two decimals, the retry policy, the location id", () => {
  const b = recBody(REQ, 108);
  assert.deepEqual(b.vinculo.devedor, { cpf: "52998224725", nome: "Ana Souza" });
  assert.ok(b.vinculo.objeto.length <= 35 && b.vinculo.contrato.length <= 35);
  assert.deepEqual(b.calendario, { dataInicial: "2026-12-20", periodicidade: "MENSAL" });
  assert.deepEqual(b.valor, { valorRec: "49.90" });
  assert.equal(b.politicaRetentativa, "PERMITE_3R_7D");
  assert.equal(b.loc, 108);
  // A variable mandate sends no valor; a CNPJ payer is a PessoaJuridicaRecorrencia; each period its word.
  const v = recBody({ ...REQ, amountMinor: null, period: "quarterly", endDate: "2027-12-20", payer: { name: "Loja Ltda", documentId: "11.222.333/0001-81" } }, 7);
  assert.equal("valor" in v, false);
  assert.deepEqual(v.vinculo.devedor, { cnpj: "11222333000181", nome: "Loja Ltda" });
  assert.deepEqual(v.calendario, { dataInicial: "2026-12-20", dataFinal: "2027-12-20", periodicidade: "TRIMESTRAL" });
  assert.equal(recBody({ ...REQ, period: "weekly" }, 1).calendario.periodicidade, "SEMANAL");
  assert.equal(recBody({ ...REQ, period: "yearly" }, 1).calendario.periodicidade, "ANUAL");
});

test("CobRSolicitada: idRec, calendario.dataDeVencimento, valor.original, ajusteDiaUtil", () => {
  const b = cobrBody({ idRec: "RR1234567820240115abcdefghijk", txid: "a".repeat(32), dueDate: "2027-01-20", amountMinor: 123456n, description: "x".repeat(200), payerEmail: "ana@example.com" });
  assert.equal(b.idRec, "RR1234567820240115abcdefghijk");
  assert.deepEqual(b.calendario, { dataDeVencimento: "2027-01-20" });
  assert.deepEqual(b.valor, { original: "1234.56" });
  assert.equal(b.ajusteDiaUtil, false);
  assert.equal(b.infoAdicional.length, 140);
  assert.deepEqual(b.devedor, { email: "ana@example.com" });
});

test("a recurrence's status in our words: who cancelled it decides payer or merchant", () => {
  assert.deepEqual(recurrenceState({ status: "CRIADA" }), { status: "pending" });
  assert.deepEqual(recurrenceState({ status: "APROVADA" }), { status: "authorized" });
  assert.deepEqual(recurrenceState({ status: "REJEITADA" }), { status: "rejected" });
  assert.deepEqual(recurrenceState({ status: "EXPIRADA" }), { status: "expired" });
  for (const solicitante of ["USUARIO_PAGADOR", "PSP_PAGADOR"]) assert.deepEqual(recurrenceState({ status: "CANCELADA", encerramento: { cancelamento: { solicitante } } }), { status: "cancelled", by: "payer" });
  for (const solicitante of ["USUARIO_RECEBEDOR", "PSP_RECEBEDOR"]) assert.deepEqual(recurrenceState({ status: "CANCELADA", encerramento: { cancelamento: { solicitante } } }), { status: "cancelled", by: "merchant" });
  assert.equal(recurrenceState({ status: "ATIVA" }), null, "no guess at a word the schema does not list");
  assert.equal(recurrenceQr({ dadosQR: { jornada: "JORNADA_2", pixCopiaECola: "000201" } }), "000201");
  assert.equal(recurrenceQr({}), null);
});

test("a CobR attempt as a payment status; a missing attempt is no answer", () => {
  const t = (status: string) => ({ status, tipo: "AGND", dataLiquidacao: "2027-01-20", endToEndId: "E".repeat(32), atualizacao: [] });
  const cobr = (status: string, ...ts: string[]) => ({ status, tentativas: ts.map(t) });
  assert.equal(attemptStatus(cobr("ATIVA", "AGENDADA"), 1), "pending");
  assert.equal(attemptStatus(cobr("ATIVA", "REJEITADA"), 1), "failed");
  assert.equal(attemptStatus(cobr("ATIVA", "REJEITADA", "SOLICITADA"), 2), "pending");
  assert.equal(attemptStatus(cobr("CONCLUIDA", "REJEITADA", "PAGA"), 2), "paid");
  assert.equal(attemptStatus(cobr("CONCLUIDA", "REJEITADA", "PAGA"), 1), "failed", "an earlier attempt stays what it was");
  assert.equal(attemptStatus(cobr("ATIVA", "EXPIRADA"), 1), "expired");
  assert.equal(attemptStatus(cobr("CANCELADA", "CANCELADA"), 1), "failed");
  assert.equal(attemptStatus(cobr("ATIVA", "REJEITADA"), 2), "missing");
});

test("problems: the PSP's own not-found and refusals; a bare 404 is neither", () => {
  const p = (tipo: string) => ({ type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`, title: tipo, status: 404 });
  assert.equal(notFound(404, p("CobRNaoEncontrado")), true);
  assert.equal(notFound(404, p("RecNaoEncontrada")), true);
  assert.equal(notFound(404, undefined), false);
  assert.equal(notFound(404, { error: "not found" }), false);
  assert.equal(refusalOf(400, p("CobROperacaoInvalida")), "CobROperacaoInvalida");
  assert.equal(refusalOf(503, p("ServicoIndisponivel")), null);
  assert.equal(refusalOf(400, "<html>"), null);
});

test("devolução: our refund reference as a DevolucaoId, the Pix that paid the CobR", () => {
  assert.match(devolucaoId("clm_AbC123xyz"), /^[a-zA-Z0-9]{1,35}$/);
  assert.equal(devolucaoId("clm_AbC123xyz"), "clmAbC123xyz");
  const e2e = "E1234567820240115abcdefghijk1234";
  assert.equal(paidEndToEndId({ pix: [{ endToEndId: e2e, txid: "t", valor: "1.00", horario: "x" }] }), e2e);
  assert.equal(paidEndToEndId({ pix: [] }), null);
});
