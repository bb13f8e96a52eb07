// The wire format of Pix Automático (recurring PIX) as Brazil's central bank publishes it for
// every PSP: API Pix 2.9.0, github.com/bacen/pix-api, openapi.yaml (tags PayloadLocationRec,
// Rec, CobR, WebhookRec, WebhookCobR). Only what a shop's mandate needs, by the QR-code journey
// (JORNADA_2: the payer scans the recurrence's QR in their bank's app):
//   POST  /locrec                          -> 201 PayloadLocationRecGerada {id, location, criacao}
//   POST  /rec       RecSolicitada         -> 201 RecGerada {idRec, status: CRIADA, …}
//   GET   /rec/{idRec}                     -> RecCompleta {status, encerramento?, dadosQR: {jornada, pixCopiaECola}}
//   PATCH /rec/{idRec} {status: CANCELADA} -> RecGerada (RecRevisada: the receiver's cancel)
//   PUT   /cobr/{txid} CobRSolicitada      -> 201 CobRGerada {status: CRIADA | ATIVA, …}
//   POST  /cobr/{txid}/retentativa/{data}  -> 201 CobRCompleta with `tentativas` (one more attempt)
//   GET   /cobr/{txid}                     -> CobRCompleta {status, tentativas[]}
//   PUT   /webhookrec, /webhookcobr {webhookUrl}: notices POSTed to {webhookUrl}/rec ({recs: [RecNotification]})
//         and {webhookUrl}/cobr ({cobsr: [CobRNotification]}).
//   PUT   /pix/{e2eid}/devolucao/{id} DevolucaoSolicitada {valor} -> 201 Devolucao {id, rtrId, status}
//   GET   /pix/{e2eid}/devolucao/{id}     -> Devolucao (status EM_PROCESSAMENTO | DEVOLVIDO | NAO_REALIZADO)
// Errors are RFC 7807 problems, `type` https://pix.bcb.gov.br/api/v2/error/<TipoErro>
// (RecNaoEncontrada, CobRNaoEncontrado, RecOperacaoInvalida, CobROperacaoInvalida, …).
// The API's own authentication (OAuth2 client credentials over mTLS, `securitySchemes`) is the
// PSP's; the simulated PSP takes its Bearer secret as the access token (see pix-automatico.ts).
import type { RecurrenceRequest, RecurrenceState, CobrRequest } from "@/lib/providers/types";
import { toMajor } from "@/lib/money/amount";

/** `Rec.calendario.periodicidade` for our mandate periods (SEMESTRAL has no period of ours). */
export const PERIODICIDADE = { weekly: "SEMANAL", monthly: "MENSAL", quarterly: "TRIMESTRAL", yearly: "ANUAL" } as const;

/** Money as the API writes it: `\d{1,10}\.\d{2}`, reais and centavos. */
const reais = (minor: bigint) => toMajor(minor, "BRL").toFixed(2);

/** A CPF (11 digits) or CNPJ (14) as `vinculo.devedor` takes it (PessoaFisicaRecorrencia | PessoaJuridicaRecorrencia). */
function devedor(documentId: string, nome: string) {
  const digits = documentId.replace(/[^0-9A-Za-z]/g, "").toUpperCase();
  return digits.length === 11 ? { cpf: digits, nome: nome.slice(0, 140) } : { cnpj: digits, nome: nome.slice(0, 140) };
}

/**
 * RecSolicitada (schemas RecBase + RecConfiguracao): a fixed mandate's `valor.valorRec`; a
 * variable one sends no valor (the payer sets their own ceiling in the bank's app; ours is kept
 * and enforced here). `politicaRetentativa` PERMITE_3R_7D: our three retries within seven days.
 */
export function recBody(r: RecurrenceRequest, locId: number) {
  return {
    vinculo: { objeto: r.description.slice(0, 35), contrato: r.mandateId.slice(0, 35), devedor: devedor(r.payer.documentId, r.payer.name) },
    calendario: { dataInicial: r.startDate, ...(r.endDate ? { dataFinal: r.endDate } : {}), periodicidade: PERIODICIDADE[r.period] },
    ...(r.amountMinor !== null ? { valor: { valorRec: reais(r.amountMinor) } } : {}),
    politicaRetentativa: "PERMITE_3R_7D",
    loc: locId,
  };
}

/**
 * CobRSolicitada (CobRBase + DadosDevedorRecorrencia): the charge of one due date.
 * `ajusteDiaUtil` false: the due date is the merchant's, and our payment lives until it ends.
 */
export function cobrBody(c: CobrRequest) {
  return {
    idRec: c.idRec,
    infoAdicional: c.description.slice(0, 140),
    calendario: { dataDeVencimento: c.dueDate },
    valor: { original: reais(c.amountMinor) },
    ajusteDiaUtil: false,
    ...(c.payerEmail ? { devedor: { email: c.payerEmail } } : {}),
  };
}

/** `Problema.type`'s last segment (RFC 7807 as API Pix uses it), or null when the body is none. */
export function problemType(body: unknown): string | null {
  const t = (body as { type?: unknown } | null | undefined)?.type;
  return typeof t === "string" && t.startsWith("https://pix.bcb.gov.br/api/v2/error/") ? t.slice("https://pix.bcb.gov.br/api/v2/error/".length) : null;
}

/** The PSP's own "not found" for a recurrence or charge (a bare 404 of a proxy is no answer). */
export const notFound = (status: number, body: unknown) => status === 404 && /NaoEncontrad[ao]$/.test(problemType(body) ?? "");

/** An explicit refusal of a request (400 *OperacaoInvalida, 403 AcessoNegado): its type, else null. */
export function refusalOf(status: number, body: unknown): string | null {
  const t = problemType(body);
  return t && (status === 400 || status === 403) ? t : null;
}

/**
 * RecCompleta's status in our words. CANCELADA says who asked (`encerramento.cancelamento.solicitante`):
 * the payer or their PSP (USUARIO_PAGADOR, PSP_PAGADOR), or the receiver's side (USUARIO_RECEBEDOR,
 * PSP_RECEBEDOR: our own cancel, or the PSP's).
 */
export function recurrenceState(body: any): RecurrenceState | null {
  switch (body?.status) {
    case "CRIADA":
      return { status: "pending" };
    case "APROVADA":
      return { status: "authorized" };
    case "REJEITADA":
      return { status: "rejected" };
    case "EXPIRADA":
      return { status: "expired" };
    case "CANCELADA": {
      const by = body?.encerramento?.cancelamento?.solicitante;
      return { status: "cancelled", by: by === "USUARIO_PAGADOR" || by === "PSP_PAGADOR" ? "payer" : "merchant" };
    }
    default:
      return null;
  }
}

/** The QR code of the recurrence (JORNADA_2), when the PSP gives one. */
export function recurrenceQr(body: any): string | null {
  const qr = body?.dadosQR?.pixCopiaECola;
  return typeof qr === "string" && qr.length > 0 && qr.length <= 512 ? qr : null;
}

/**
 * One attempt of a CobR (`tentativas[n - 1]`, CobRTentativas) as a payment status: PAGA paid;
 * REJEITADA or CANCELADA failed (the payer's bank refused it, or it was cancelled before it ran);
 * EXPIRADA expired; SOLICITADA / AGENDADA still pending. No such attempt while the CobR was
 * answered: the PSP never received it (a retry request lost on its way).
 */
type AttemptWord = "pending" | "paid" | "failed" | "expired";
/** CobRTentativas' status words. */
const ATTEMPT: Record<string, AttemptWord> = { SOLICITADA: "pending", AGENDADA: "pending", PAGA: "paid", REJEITADA: "failed", CANCELADA: "failed", EXPIRADA: "expired" };
/** A CobR that lists no attempts answers for its first by its own status (CobRStatus). */
const COBR_ENDED: Record<string, AttemptWord> = { CONCLUIDA: "paid", REJEITADA: "failed", CANCELADA: "failed", EXPIRADA: "expired" };

export function attemptStatus(body: any, n: number): AttemptWord | "missing" | null {
  const tentativas = body?.tentativas;
  if (body?.status === "CONCLUIDA" && (!Array.isArray(tentativas) || tentativas.length === n)) return "paid";
  if (!Array.isArray(tentativas)) return body?.status === "CRIADA" || body?.status === "ATIVA" ? (n === 1 ? "pending" : "missing") : (COBR_ENDED[body?.status] ?? null);
  const t = tentativas[n - 1];
  return t ? (ATTEMPT[t.status] ?? null) : "missing";
}

/** The Pix that paid a CobR (CobRCompleta.pix[], PixAutomatico.endToEndId), if any. */
export function paidEndToEndId(body: any): string | null {
  const pix = Array.isArray(body?.pix) ? body.pix : [];
  const e2e = pix[0]?.endToEndId;
  return typeof e2e === "string" && /^[a-zA-Z0-9]{32}$/.test(e2e) ? e2e : null;
}

/** DevolucaoId ([a-zA-Z0-9]{1,35}) from our refund reference (its separators dropped: still unique). */
export const devolucaoId = (reference: string) => reference.replace(/[^a-zA-Z0-9]/g, "").slice(0, 35);

/** DevolucaoSolicitada: the amount; `natureza` left to its default (ORIGINAL: a refund of the Pix itself). */
export const devolucaoBody = (minor: bigint) => ({ valor: reais(minor) });

export function devolucaoState(body: any): "refunded" | "rejected" | "processing" | null {
  return body?.status === "DEVOLVIDO" ? "refunded" : body?.status === "NAO_REALIZADO" ? "rejected" : body?.status === "EM_PROCESSAMENTO" ? "processing" : null;
}
