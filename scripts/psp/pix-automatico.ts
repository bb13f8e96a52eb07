// Pix Automático at a simulated Brazilian PSP (pagosur), speaking Brazil's API Pix 2.9.0
// (github.com/bacen/pix-api, openapi.yaml; the subset in lib/providers/http-psp/pix-automatico-wire.ts):
//   PUT  /webhookrec, /webhookcobr {webhookUrl}     notices go to {webhookUrl}/rec and {webhookUrl}/cobr
//   POST /locrec                                    -> 201 {id, location, criacao}
//   POST /rec  RecSolicitada                        -> 201 RecGerada (status CRIADA)
//   GET  /rec/{idRec}                               -> RecCompleta (+ dadosQR JORNADA_2 while CRIADA)
//   PATCH /rec/{idRec} {status: CANCELADA}          the receiver's cancel
//   PUT  /cobr/{txid} CobRSolicitada                -> 201 CobRGerada (status ATIVA, its first attempt AGENDADA)
//   POST /cobr/{txid}/retentativa/{data}            -> 201 CobRCompleta (one more attempt, SOLICITADA)
//   GET  /cobr/{txid}                               -> CobRCompleta (tentativas, pix[] once paid)
//   PUT|GET /pix/{e2eid}/devolucao/{id} {valor}     a refund of the Pix that paid a CobR (DEVOLVIDO at once)
// Errors are the API's problems: {type: https://pix.bcb.gov.br/api/v2/error/<Tipo>, title, status, detail}.
// A txid in use, a second live CobR for a recurrence and due date, a retry while an attempt is
// open, a retry the recurrence's policy does not allow: 400 *OperacaoInvalida, as the API lists.
//
// The payer and their bank are played by the control API (loopback, no secret):
//   POST /_control/pix/rec/{idRec}/{approve|reject|cancel}   the payer authorizes, refuses, or cancels in their app
//   POST /_control/pix/cobr/{txid}/{pay|reject|expire}       the current attempt settles, is refused, or lapses
//   GET  /_control/pix/rec/{idRec}, /_control/pix/cobr/{txid}  what the PSP holds
// each followed by the API's notice ({recs: [...]} or {cobsr: [...]}) unless {notify: false}, signed
// as every notice of this provider (X-Provider-Signature: API Pix PSPs authenticate their
// callbacks by mTLS, which a loopback simulator cannot show; the signature stands in for it).
// Behaviour rules (POST /_control/behaviour {mode: timeout|error|…, forEmail}) apply to PUT /cobr
// and retries by the CobR's `devedor.email`, as they do to charges by the buyer's email.
import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { SimContext } from "./context.ts";
import { failedRequest, lostAnswer, readBody, send } from "./answers.ts";
import { crc16 } from "../../lib/payments/br-code.ts";

type Rec = { idRec: string; body: any; status: "CRIADA" | "APROVADA" | "REJEITADA" | "EXPIRADA" | "CANCELADA"; loc: { id: number; location: string; criacao: string }; atualizacao: Array<{ status: string; data: string }>; encerramento?: unknown; ativacao: { tipoJornada: string } };
type Tentativa = { dataLiquidacao: string; tipo: "AGND" | "NTAG" | "RIFL"; status: "SOLICITADA" | "AGENDADA" | "PAGA" | "CANCELADA" | "REJEITADA" | "EXPIRADA"; endToEndId: string; atualizacao: Array<{ status: string; data: string }> };
type CobR = { txid: string; idRec: string; body: any; status: "CRIADA" | "ATIVA" | "CONCLUIDA" | "EXPIRADA" | "REJEITADA" | "CANCELADA"; criacao: string; atualizacao: Array<{ status: string; data: string }>; tentativas: Tentativa[]; pix: Array<{ endToEndId: string; txid: string; valor: string; horario: string }>; devolucoes: Map<string, { id: string; rtrId: string; valor: string; status: string; horario: { solicitacao: string; liquidacao: string } }> };
type PixState = { webhooks: { rec?: string; cobr?: string }; locs: Map<number, { id: number; location: string; criacao: string; idRec?: string }>; recs: Map<string, Rec>; cobrs: Map<string, CobR>; nextLoc: number; seq: number };

const states = new WeakMap<SimContext, PixState>();
const stateOf = (sim: SimContext): PixState => {
  let s = states.get(sim);
  if (!s) states.set(sim, (s = { webhooks: {}, locs: new Map(), recs: new Map(), cobrs: new Map(), nextLoc: 100, seq: 0 }));
  return s;
};

/** This PSP's ISPB (8 characters, the ids' agent field): a made-up one, as the spec's examples use. */
const ISPB = "12345678";
const RECEIVER = { cnpj: "28765007802371", nome: "PagoSur Recebimentos" };
const now = () => new Date().toISOString();
const today = () => new Date().toISOString().slice(0, 10).replace(/-/g, "");
const alnum = (n: number) => randomBytes(n * 2).toString("base64").replace(/[^a-zA-Z0-9]/g, "").slice(0, n).padEnd(n, "0");
const MONEY = /^\d{1,10}\.\d{2}$/;

const problem = (res: http.ServerResponse, status: number, tipo: string, detail: string) => send(res, status, { type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`, title: tipo, status, detail });

/** A BR Code (EMV TLV) of the recurrence's location, as dadosQR.pixCopiaECola of JORNADA_2 is built. */
function recQr(location: string, receiver: string): string {
  const tlv = (id: string, v: string) => `${id}${String(v.length).padStart(2, "0")}${v}`;
  const gui = tlv("00", "br.gov.bcb.pix");
  // The spec's JORNADA_2 example: 00 (format), 26 (the Pix GUI alone), 52/53/58/59/60, 62 (txid ***), 80 (GUI + the recurrence's location), 63 (CRC).
  const body = tlv("00", "01") + tlv("26", gui) + tlv("52", "0000") + tlv("53", "986") + tlv("58", "BR") + tlv("59", receiver.slice(0, 25)) + tlv("60", "BRASILIA") + tlv("62", tlv("05", "***")) + tlv("80", gui + tlv("25", location)) + "6304";
  return body + crc16(body);
}

function recCompleta(r: Rec) {
  return { idRec: r.idRec, ...r.body, recebedor: RECEIVER, status: r.status, loc: r.loc, atualizacao: r.atualizacao, ...(r.encerramento ? { encerramento: r.encerramento } : {}), ativacao: r.ativacao, ...(r.status === "CRIADA" ? { dadosQR: { jornada: "JORNADA_2", pixCopiaECola: recQr(r.loc.location, RECEIVER.nome) } } : {}) };
}

function cobrCompleta(c: CobR, rec: Rec | undefined) {
  return { idRec: c.idRec, txid: c.txid, ...c.body, calendario: { ...c.body.calendario, criacao: c.criacao.slice(0, 10) }, recebedor: RECEIVER, status: c.status, politicaRetentativa: rec?.body.politicaRetentativa ?? "NAO_PERMITE", atualizacao: c.atualizacao, tentativas: c.tentativas, ...(c.pix.length ? { pix: c.pix } : {}) };
}

/** Serves an API Pix request; false leaves it to the provider's other handlers. */
export async function servePixAutomatico(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[]): Promise<boolean> {
  if (!sim.p.mandates) return false;
  const s = stateOf(sim);
  const [head, id, sub, arg] = parts;
  if (req.method === "PUT" && (head === "webhookrec" || head === "webhookcobr") && parts.length === 1) {
    const b = JSON.parse((await readBody(req)) || "{}") as { webhookUrl?: string };
    if (typeof b.webhookUrl !== "string" || !/^https?:\/\//.test(b.webhookUrl)) return problem(res, 400, head === "webhookrec" ? "WebhookRecOperacaoInvalida" : "WebhookCobROperacaoInvalida", "webhookUrl is not a URL"), true;
    s.webhooks[head === "webhookrec" ? "rec" : "cobr"] = b.webhookUrl.replace(/\/+$/, "");
    return send(res, 200, {}), true;
  }
  if (req.method === "POST" && head === "locrec" && parts.length === 1) {
    const loc = { id: s.nextLoc++, location: `${sim.base.replace(/^https?:\/\//, "")}/qr/v2/rec/${randomBytes(16).toString("hex")}`, criacao: now() };
    s.locs.set(loc.id, loc);
    return send(res, 201, { ...loc }), true;
  }
  if (head === "rec" && !id && req.method === "POST") return createRec(sim, s, req, res), true;
  if (head === "rec" && id && parts.length === 2) {
    const r = s.recs.get(id);
    if (!r) return problem(res, 404, "RecNaoEncontrada", "Recorrência não encontrada para o idRec informado."), true;
    if (req.method === "GET") return send(res, 200, recCompleta(r)), true;
    if (req.method === "PATCH") {
      const b = JSON.parse((await readBody(req)) || "{}") as { status?: string };
      if (b.status !== "CANCELADA" || (r.status !== "CRIADA" && r.status !== "APROVADA")) return problem(res, 400, "RecOperacaoInvalida", `A recorrência está ${r.status}.`), true;
      endRec(r, "CANCELADA", { cancelamento: { solicitante: "USUARIO_RECEBEDOR", codigo: "SLCR", descricao: "Cancelada pelo recebedor" } });
      void notifyRecs(sim, s, [r]);
      return send(res, 200, recCompleta(r)), true;
    }
  }
  if (head === "cobr" && id && parts.length === 2 && req.method === "PUT") return await putCobr(sim, s, req, res, id), true;
  if (head === "cobr" && id && parts.length === 2 && req.method === "GET") {
    const c = s.cobrs.get(id);
    return (c ? send(res, 200, cobrCompleta(c, s.recs.get(c.idRec))) : problem(res, 404, "CobRNaoEncontrado", "Cobrança não encontrada para o txid informado.")), true;
  }
  if (head === "cobr" && id && sub === "retentativa" && arg && req.method === "POST") return await retryCobr(sim, s, res, id, arg), true;
  if (head === "pix" && id && sub === "devolucao" && arg) return await devolucao(s, req, res, id, arg), true;
  return false;
}

async function createRec(sim: SimContext, s: PixState, req: http.IncomingMessage, res: http.ServerResponse) {
  const b = JSON.parse((await readBody(req)) || "{}") as any;
  const d = b?.vinculo?.devedor;
  const bad =
    (!b?.vinculo?.contrato && "vinculo.contrato") ||
    (!(d && typeof d.nome === "string" && ((typeof d.cpf === "string" && /^\d{11}$/.test(d.cpf)) || (typeof d.cnpj === "string" && /^[0-9A-Z]{14}$/.test(d.cnpj)))) && "vinculo.devedor") ||
    (!/^\d{4}-\d{2}-\d{2}$/.test(b?.calendario?.dataInicial ?? "") && "calendario.dataInicial") ||
    (b?.calendario?.dataFinal && b.calendario.dataFinal < b.calendario.dataInicial && "calendario.dataFinal") ||
    (!["SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"].includes(b?.calendario?.periodicidade) && "calendario.periodicidade") ||
    (b?.valor && ((b.valor.valorRec !== undefined) === (b.valor.valorMinimoRecebedor !== undefined) || ![b.valor.valorRec, b.valor.valorMinimoRecebedor].filter((v) => v !== undefined).every((v) => MONEY.test(v))) && "valor") ||
    (!["NAO_PERMITE", "PERMITE_3R_7D"].includes(b?.politicaRetentativa) && "politicaRetentativa") ||
    ((typeof b?.loc !== "number" || !s.locs.has(b.loc) || s.locs.get(b.loc)!.idRec) && "loc");
  if (bad) return problem(res, 400, "RecOperacaoInvalida", `O campo rec.${bad} não respeita o schema.`);
  const idRec = `R${b.politicaRetentativa === "PERMITE_3R_7D" ? "R" : "N"}${ISPB}${today()}${alnum(11)}`;
  const loc = s.locs.get(b.loc)!;
  loc.idRec = idRec;
  const { loc: _loc, ...rest } = b;
  const r: Rec = { idRec, body: rest, status: "CRIADA", loc: { id: loc.id, location: loc.location, criacao: loc.criacao }, atualizacao: [{ status: "CRIADA", data: now() }], ativacao: { tipoJornada: "AGUARDANDO_DEFINICAO" } };
  s.recs.set(idRec, r);
  sim.log(`[${sim.p.code}] rec ${idRec} ${b.calendario.periodicidade} ${b.valor?.valorRec ?? "variável"}`);
  const { dadosQR: _qr, ...gerada } = recCompleta(r);
  send(res, 201, gerada);
}

function endRec(r: Rec, status: Rec["status"], encerramento?: unknown) {
  r.status = status;
  r.atualizacao.push({ status, data: now() });
  if (encerramento) r.encerramento = encerramento;
}

async function putCobr(sim: SimContext, s: PixState, req: http.IncomingMessage, res: http.ServerResponse, txid: string) {
  const raw = await readBody(req);
  const b = JSON.parse(raw || "{}") as any;
  const rule = sim.behaviour.chargeRule({ buyer: { email: b?.devedor?.email } });
  if (failedRequest(res, rule.mode, sim.store.hanging)) return;
  if (!/^[a-zA-Z0-9]{26,35}$/.test(txid)) return problem(res, 400, "CobROperacaoInvalida", "O txid não respeita o schema.");
  if (s.cobrs.has(txid)) return problem(res, 400, "CobROperacaoInvalida", "O campo cobr.txid encontra-se em uso.");
  const rec = s.recs.get(b?.idRec);
  if (!rec || rec.status !== "APROVADA") return problem(res, 400, "CobROperacaoInvalida", "A recorrência não existe ou não está aprovada.");
  const due = b?.calendario?.dataDeVencimento;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(due ?? "") || !MONEY.test(b?.valor?.original ?? "")) return problem(res, 400, "CobROperacaoInvalida", "O objeto cobr.calendario ou cobr.valor não respeita o schema.");
  if (rec.body.valor?.valorRec && rec.body.valor.valorRec !== b.valor.original) return problem(res, 400, "CobROperacaoInvalida", "O valor difere do valor da recorrência.");
  if ([...s.cobrs.values()].some((c) => c.idRec === rec.idRec && c.body.calendario.dataDeVencimento === due && c.status !== "REJEITADA" && c.status !== "CANCELADA")) {
    return problem(res, 400, "CobROperacaoInvalida", "Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec no mesmo ciclo.");
  }
  const at = now();
  const c: CobR = { txid, idRec: rec.idRec, body: b, status: "ATIVA", criacao: at, atualizacao: [{ status: "CRIADA", data: at }, { status: "ATIVA", data: at }], tentativas: [attempt(due, "AGND")], pix: [], devolucoes: new Map() };
  s.cobrs.set(txid, c);
  sim.log(`[${sim.p.code}] cobr ${txid} ${due} ${b.valor.original}`);
  if (lostAnswer(res, rule.mode, sim.store.hanging)) return;
  send(res, 201, cobrCompleta(c, rec));
}

function attempt(date: string, tipo: Tentativa["tipo"]): Tentativa {
  const status = tipo === "AGND" ? "AGENDADA" : "SOLICITADA";
  return { dataLiquidacao: date, tipo, status, endToEndId: `E${ISPB}${today()}${alnum(11)}`.padEnd(32, "0").slice(0, 32), atualizacao: [{ status, data: now() }] };
}

async function retryCobr(sim: SimContext, s: PixState, res: http.ServerResponse, txid: string, date: string) {
  const c = s.cobrs.get(txid);
  if (!c) return problem(res, 404, "CobRNaoEncontrado", "Cobrança não encontrada para o txid informado.");
  const rule = sim.behaviour.chargeRule({ buyer: { email: c.body?.devedor?.email } });
  if (failedRequest(res, rule.mode, sim.store.hanging)) return;
  const rec = s.recs.get(c.idRec);
  if (rec?.body.politicaRetentativa !== "PERMITE_3R_7D") return problem(res, 400, "CobROperacaoInvalida", "A política configurada na recorrência não permite retentativa de cobrança.");
  const last = c.tentativas.at(-1);
  if (c.status !== "ATIVA" || (last && ["SOLICITADA", "AGENDADA", "PAGA"].includes(last.status))) return problem(res, 400, "CobROperacaoInvalida", "Existe uma tentativa não finalizada.");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || c.tentativas.length >= 4) return problem(res, 400, "CobROperacaoInvalida", "Retentativa fora da política.");
  c.tentativas.push(attempt(date, "RIFL"));
  if (lostAnswer(res, rule.mode, sim.store.hanging)) return;
  send(res, 201, cobrCompleta(c, rec));
}

async function devolucao(s: PixState, req: http.IncomingMessage, res: http.ServerResponse, e2eid: string, id: string) {
  const c = [...s.cobrs.values()].find((x) => x.pix.some((p) => p.endToEndId === e2eid));
  if (!c) return problem(res, 404, "NaoEncontrado", "Pix não encontrado.");
  if (req.method === "GET") {
    const d = c.devolucoes.get(id);
    return d ? send(res, 200, d) : problem(res, 404, "NaoEncontrado", "Devolução não encontrada.");
  }
  if (req.method !== "PUT") return problem(res, 400, "PixDevolucaoOperacaoInvalida", "Método não suportado.");
  const b = JSON.parse((await readBody(req)) || "{}") as { valor?: string };
  const known = c.devolucoes.get(id);
  if (known) return send(res, 201, known);
  if (!MONEY.test(b.valor ?? "")) return problem(res, 400, "PixDevolucaoOperacaoInvalida", "O campo valor não respeita o schema.");
  const cents = (v: string) => BigInt(v.replace(".", ""));
  const done = [...c.devolucoes.values()].reduce((a, d) => a + cents(d.valor), 0n);
  if (done + cents(b.valor!) > cents(c.pix[0]!.valor)) return problem(res, 400, "PixDevolucaoOperacaoInvalida", "A soma das devoluções ultrapassa o valor do Pix.");
  const at = now();
  const d = { id, rtrId: `D${ISPB}${today()}${alnum(15)}`.slice(0, 32).padEnd(32, "0"), valor: b.valor!, status: "DEVOLVIDO", horario: { solicitacao: at, liquidacao: at } };
  c.devolucoes.set(id, d);
  send(res, 201, d);
}

async function notifyRecs(sim: SimContext, s: PixState, recs: Rec[]) {
  if (!s.webhooks.rec) return [];
  return sim.notices.signedPost(`${s.webhooks.rec}/rec`, { recs: recs.map((r) => ({ idRec: r.idRec, status: r.status, atualizacao: r.atualizacao, ...(r.encerramento ? { encerramento: r.encerramento } : {}), ativacao: r.ativacao })) });
}

async function notifyCobrs(sim: SimContext, s: PixState, cobrs: CobR[]) {
  if (!s.webhooks.cobr) return [];
  return sim.notices.signedPost(`${s.webhooks.cobr}/cobr`, { cobsr: cobrs.map((c) => ({ idRec: c.idRec, txid: c.txid, status: c.status, atualizacao: c.atualizacao, tentativas: c.tentativas })) });
}

/** /_control/pix/…: the payer and their bank (see the header). */
export async function servePixControl(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[]): Promise<boolean> {
  if (parts[1] !== "pix") return false;
  const s = stateOf(sim);
  const [, , kind, id, action] = parts;
  const opts = req.method === "POST" ? (JSON.parse((await readBody(req)) || "{}") as { notify?: boolean }) : {};
  if (kind === "rec" && id) {
    const r = s.recs.get(id);
    if (!r) return send(res, 404, { error: "unknown recurrence" }), true;
    if (req.method === "GET") return send(res, 200, recCompleta(r)), true;
    const at = now();
    if (action === "approve" && r.status === "CRIADA") {
      endRec(r, "APROVADA");
      r.ativacao = { tipoJornada: "JORNADA_2" };
    } else if (action === "reject" && r.status === "CRIADA") endRec(r, "REJEITADA", { rejeicao: { codigo: "AP13", descricao: "Rejeitada pelo usuário pagador" } });
    // `codigo`: one of the API's cancellation codes; we read only `solicitante`.
    else if (action === "cancel" && r.status === "APROVADA") endRec(r, "CANCELADA", { cancelamento: { solicitante: "USUARIO_PAGADOR", codigo: "ACCL", descricao: "Cancelada pelo usuário pagador" } });
    else return send(res, 409, { error: `recurrence is ${r.status}` }), true;
    // Charges not yet settled end with a cancelled recurrence.
    if ((r.status as Rec["status"]) === "CANCELADA") for (const c of s.cobrs.values()) if (c.idRec === r.idRec && c.status === "ATIVA") (c.status = "CANCELADA"), c.atualizacao.push({ status: "CANCELADA", data: at });
    const statuses = opts.notify === false ? [] : await notifyRecs(sim, s, [r]);
    return send(res, 200, { rec: recCompleta(r), statuses }), true;
  }
  if (kind === "cobr" && id) {
    const c = s.cobrs.get(id);
    if (!c) return send(res, 404, { error: "unknown charge" }), true;
    if (req.method === "GET") return send(res, 200, cobrCompleta(c, s.recs.get(c.idRec))), true;
    const t = c.tentativas.at(-1);
    if (c.status !== "ATIVA" || !t || (t.status !== "AGENDADA" && t.status !== "SOLICITADA")) return send(res, 409, { error: `charge is ${c.status}, its attempt ${t?.status}` }), true;
    const at = now();
    const to = action === "pay" ? "PAGA" : action === "reject" ? "REJEITADA" : action === "expire" ? "EXPIRADA" : null;
    if (!to) return send(res, 404, { error: "unknown action" }), true;
    t.status = to;
    t.atualizacao.push({ status: to, data: at });
    if (to === "PAGA") {
      c.status = "CONCLUIDA";
      c.atualizacao.push({ status: "CONCLUIDA", data: at });
      c.pix.push({ endToEndId: t.endToEndId, txid: c.txid, valor: c.body.valor.original, horario: at });
    } else if (s.recs.get(c.idRec)?.body.politicaRetentativa !== "PERMITE_3R_7D" || c.tentativas.length >= 4) {
      // No retry left: the charge ends with its attempt.
      c.status = to === "EXPIRADA" ? "EXPIRADA" : "REJEITADA";
      c.atualizacao.push({ status: c.status, data: at });
    }
    const statuses = opts.notify === false ? [] : await notifyCobrs(sim, s, [c]);
    return send(res, 200, { cobr: cobrCompleta(c, s.recs.get(c.idRec)), statuses }), true;
  }
  return send(res, 404, { error: "unknown control" }), true;
}
