// Pix Automático at a PSP that speaks Brazil's API Pix (wire format and its source in
// ./pix-automatico-wire.ts): the recurrence a mandate stands for, and each charge under it.
//
// A mandate's recurrence: a location (POST /locrec), the recurrence on it (POST /rec), then its QR
// code read back (GET /rec/{idRec}: dadosQR.pixCopiaECola). The notice URLs are registered on each
// creation (PUT /webhookrec, /webhookcobr: idempotent), so a PSP never holds one of ours without
// them. Creating a recurrence moves no money: an unknown answer leaves at worst a recurrence the
// payer never sees, which expires at the PSP; the mandate is not created and the caller may retry.
//
// A charge (CobR) is one per due date, its txid ours (derived from mandate and due date); each of
// our sends is one of its attempts (`tentativas`): the first is the CobR itself, each retry a
// POST /cobr/{txid}/retentativa/{date}, as the scheme wants (the PSP refuses a second live CobR
// for a recurrence in one cycle, and a txid in use: a PUT repeated after a lost answer is
// recognised by reading the CobR back). A payment's provider reference names the attempt,
// `cobr:<txid>:<n>`, written on the payment before the call (lib/payments/create/route.ts), so a
// lost answer never leaves a payment that names nothing at the PSP.
//
// Authentication: API Pix PSPs issue OAuth2 tokens (client credentials, over mTLS) from a token
// URL of their own that the API does not fix; this client sends PROVIDER_<CODE>_SECRET as the
// Bearer token, which is what the simulated PSP checks. A real PSP's token exchange and client
// certificate are not built (docs/operators/providers.md says so).
import { providerExchange, noUsableAnswer, type Exchange } from "@/lib/providers/http-exchange";
import * as wire from "@/lib/providers/http-psp/pix-automatico-wire";
import type { ProviderConfig } from "@/lib/providers/registry";
import type { ChargeOutcome, ChargeRequest, MandateConnector, ProviderStatus, RecurrenceCancel, RecurrenceLookup, RecurrenceOutcome, RecurrenceRequest, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";

const REF = /^cobr:([A-Za-z0-9]{26,35}):(\d{1,2})$/;

/** The provider reference of attempt `n` of CobR `txid`. */
export const cobrRef = (txid: string, n: number) => `cobr:${txid}:${n}`;
export const isCobrRef = (providerRef: string | null | undefined): providerRef is string => !!providerRef && REF.test(providerRef);

export class PixAutomatico implements MandateConnector {
  readonly code: string;
  constructor(private cfg: ProviderConfig) {
    this.code = cfg.code;
  }

  private call(method: "GET" | "POST" | "PUT" | "PATCH", path: string, body?: unknown): Promise<Exchange> {
    return providerExchange(`${this.cfg.baseUrl}${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${this.cfg.secret}` }, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: this.cfg.timeoutMs }, JSON.parse);
  }

  async createRecurrence(r: RecurrenceRequest): Promise<RecurrenceOutcome> {
    for (const hook of ["/webhookrec", "/webhookcobr"]) {
      const w = await this.call("PUT", hook, { webhookUrl: r.notifyUrl });
      if (!w.ok) return { kind: "unknown", reason: w.reason };
      if (w.status < 200 || w.status >= 300) return wire.refusalOf(w.status, w.body) ? { kind: "refused", reason: wire.refusalOf(w.status, w.body)! } : { kind: "unknown", reason: noUsableAnswer(w.status, w.body) };
    }
    const loc = await this.call("POST", "/locrec");
    if (!loc.ok) return { kind: "unknown", reason: loc.reason };
    if (loc.status !== 201 || typeof loc.body?.id !== "number") return this.notCreated(loc);
    const rec = await this.call("POST", "/rec", wire.recBody(r, loc.body.id));
    if (!rec.ok) return { kind: "unknown", reason: rec.reason };
    if (rec.status !== 201 || typeof rec.body?.idRec !== "string" || !/^[a-zA-Z0-9]{29}$/.test(rec.body.idRec)) return this.notCreated(rec);
    // The QR is read back: RecGerada carries the location, RecCompleta the code built on it.
    const read = await this.call("GET", `/rec/${encodeURIComponent(rec.body.idRec)}`);
    const qrCode = read.ok && read.status === 200 ? wire.recurrenceQr(read.body) : null;
    return { kind: "created", providerRef: rec.body.idRec, qrCode };
  }

  private notCreated(a: Extract<Exchange, { ok: true }>): RecurrenceOutcome {
    const refused = wire.refusalOf(a.status, a.body);
    return refused ? { kind: "refused", reason: refused } : { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  }

  async readRecurrence(idRec: string): Promise<RecurrenceLookup> {
    const a = await this.call("GET", `/rec/${encodeURIComponent(idRec)}`);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    if (wire.notFound(a.status, a.body)) return { kind: "not_found" };
    const state = a.status === 200 ? wire.recurrenceState(a.body) : null;
    return state ? { kind: "found", ...state } : { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  }

  async cancelRecurrence(idRec: string): Promise<RecurrenceCancel> {
    const a = await this.call("PATCH", `/rec/${encodeURIComponent(idRec)}`, { status: "CANCELADA" });
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    if (a.status === 200 && a.body?.status === "CANCELADA") return { kind: "cancelled" };
    const refused = wire.refusalOf(a.status, a.body);
    // Already ended there (rejected, expired, cancelled by the payer): nothing stands to cancel.
    if (refused === "RecOperacaoInvalida") {
      const now = await this.readRecurrence(idRec);
      if (now.kind === "found" && now.status !== "pending" && now.status !== "authorized") return { kind: "cancelled" };
    }
    return refused ? { kind: "refused", reason: refused } : { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  }

  /** A mandate charge's attempt (ChargeRequest.mandate): the CobR itself, or a retry of it. */
  async sendCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    const m = req.mandate!;
    let n = m.attempt;
    let a = n === 1 ? await this.call("PUT", `/cobr/${m.txid}`, wire.cobrBody(m)) : await this.call("POST", `/cobr/${m.txid}/retentativa/${m.retryDate}`);
    // A retry of a CobR the PSP never received (the first send's answer was lost, and it was not
    // there): the CobR itself is made now, as its first attempt.
    if (n > 1 && a.ok && wire.notFound(a.status, a.body)) {
      n = 1;
      a = await this.call("PUT", `/cobr/${m.txid}`, wire.cobrBody(m));
    }
    if (!a.ok) return { kind: "unavailable", reason: a.reason };
    if (n > 1 && Array.isArray(a.body?.tentativas) && a.body.tentativas.length > 0) n = a.body.tentativas.length;
    if (a.body === undefined || a.status >= 500) return { kind: "unavailable", reason: noUsableAnswer(a.status, a.body) };
    const refused = wire.refusalOf(a.status, a.body);
    if (refused && n === 1 && (await this.holds(m.txid, m.idRec))) {
      // The API refuses a txid in use: a PUT repeated after its answer was lost finds the CobR made.
      return { kind: "accepted", providerRef: cobrRef(m.txid, 1), paymentFormUrl: null, instructions: { pixAutomatico: { idRec: m.idRec, txid: m.txid, dueDate: m.dueDate, attempt: 1 } } };
    }
    if (refused) return { kind: "declined", reason: refused };
    if (a.status !== 201 && a.status !== 200) return { kind: "unavailable", reason: noUsableAnswer(a.status, a.body) };
    // No page: the payer's bank debits on the due date. The instructions say what stands.
    return { kind: "accepted", providerRef: cobrRef(m.txid, n), paymentFormUrl: null, instructions: { pixAutomatico: { idRec: m.idRec, txid: m.txid, dueDate: m.dueDate, attempt: n } } };
  }

  /** Whether the PSP holds CobR `txid` of recurrence `idRec` (our own, made by an earlier request). */
  private async holds(txid: string, idRec: string): Promise<boolean> {
    const a = await this.call("GET", `/cobr/${txid}`);
    return a.ok && a.status === 200 && a.body?.idRec === idRec;
  }

  /**
   * Attempt n of CobR txid (`cobr:<txid>:<n>`) as a payment status. A CobR or attempt the PSP does
   * not hold is no answer, not a failure: the request making it may still be on its way (the
   * reference is written before the call). Such a payment ends at its deadline, the end of its due
   * date, by the expiry job, and a PAID after that still completes it (decisions.md "Late payments").
   */
  async chargeStatus(providerRef: string): Promise<ProviderStatus | null> {
    const [, txid, n] = REF.exec(providerRef)!;
    const a = await this.call("GET", `/cobr/${txid}`);
    if (!a.ok || a.status !== 200) return null;
    const s = wire.attemptStatus(a.body, Number(n));
    return s === "missing" ? null : s;
  }

  /**
   * A refund of a paid attempt: a devolução of the Pix that paid it (PUT /pix/{e2eid}/devolucao/{id}),
   * its id ours (the refund reference without its separator: DevolucaoId is [a-zA-Z0-9]{1,35}), so a
   * repeated request is the same devolução. The Pix is found on the CobR (`pix[].endToEndId`).
   */
  async refund(req: RefundRequest): Promise<RefundOutcome> {
    const e2e = await this.paidPix(req.providerRef);
    if (e2e.kind !== "found") return e2e.kind === "none" ? { kind: "refused", reason: "not_paid" } : { kind: "unknown", reason: e2e.reason };
    const a = await this.call("PUT", `/pix/${e2e.e2eid}/devolucao/${wire.devolucaoId(req.reference)}`, wire.devolucaoBody(req.amountLocalMinor));
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    const refused = wire.refusalOf(a.status, a.body);
    if (refused) return { kind: "refused", reason: refused };
    const s = a.status === 201 || a.status === 200 ? wire.devolucaoState(a.body) : null;
    if (s === "refunded") return { kind: "refunded", providerRef: typeof a.body?.rtrId === "string" ? a.body.rtrId : null };
    if (s === "rejected") return { kind: "refused", reason: "NAO_REALIZADO" };
    return { kind: "unknown", reason: s === "processing" ? "processing" : noUsableAnswer(a.status, a.body) };
  }

  async refundStatus(reference: string, paymentRef: string): Promise<RefundStatus> {
    const e2e = await this.paidPix(paymentRef);
    if (e2e.kind !== "found") return e2e.kind === "none" ? { kind: "not_found" } : { kind: "unknown", reason: e2e.reason };
    const a = await this.call("GET", `/pix/${e2e.e2eid}/devolucao/${wire.devolucaoId(reference)}`);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    if (wire.notFound(a.status, a.body)) return { kind: "not_found" };
    const s = a.status === 200 ? wire.devolucaoState(a.body) : null;
    if (s === "refunded") return { kind: "refunded" };
    if (s === "rejected") return { kind: "rejected", reason: "NAO_REALIZADO" };
    return s === "processing" ? { kind: "processing" } : { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  }

  /** The end-to-end id of the Pix that paid CobR attempt `providerRef`; `none`: nothing was paid. */
  private async paidPix(providerRef: string): Promise<{ kind: "found"; e2eid: string } | { kind: "none" } | { kind: "unknown"; reason: string }> {
    const [, txid] = REF.exec(providerRef) ?? [];
    if (!txid) return { kind: "none" };
    const a = await this.call("GET", `/cobr/${txid}`);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    if (a.status !== 200) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
    const e2eid = wire.paidEndToEndId(a.body);
    return e2eid ? { kind: "found", e2eid } : { kind: "none" };
  }
}
