// Simulated upstream PSPs for development and tests: each is a separate HTTP service on its own
// port with its own secret, rails, limits and hosted page, speaking the JSON protocol of
// lib/providers/http-psp.ts. They behave like real providers: accept (with a hosted page or
// only instructions), decline, time out, fail with 5xx, answer garbage, accept without a page,
// and notify late, twice or never. A control API on each (loopback only) switches behaviours:
//   POST /_control/behaviour {mode, forEmail?, times?}   mode: accept|accept_instructions|decline|timeout|error|garbage|no_page
//   POST /_control/charges/{id}/{paid|failed|expired|refunded} {notify?: true, duplicate?: false, delayMs?: 0}
//   GET  /_control/charges   GET /_control/behaviour (rules not yet used up)   POST /_control/reset
//   GET  /_control/charges                                POST /_control/reset
//   POST /_control/behaviour {mode: "decline", reason}    reason: a unified decline reason
//        (insufficient_funds, suspected_fraud, limit_exceeded, rate_limited, unmapped, …) answered
//        in this provider's own words (DECLINE_ANSWERS: codes or a message)
//   POST /_control/market {scenario}                      a market scenario (./market.ts) answers
//        bench buyers' charges (approval drifting over the run, outage, latency); {scenario: null} ends it
// Deposit accounts and payouts (lib/providers/http-accounts.ts): POST /clabes issues a CLABE
// (modes as above, plus bad_clabe: a wrong check digit, duplicate_clabe: the last one again;
// no_page: an answer without a CLABE; rules match on beneficiary.email); POST /payouts takes a
// disbursement (decline: 422 rejected; rules match on recipient.email). Both de-duplicate on
// `reference`: a CLABE already issued for a reference is answered again whatever the mode, and
// succeed_then_timeout/succeed_then_error issue it and then lose the answer. Every POST /clabes
// is counted: GET /_control/clabes?endUserRef=X -> {requests, references, clabes} (how many
// times we asked, under which references, which CLABEs were issued). Control, each answering the
// HTTP statuses of the notices it sent:
//   POST /_control/deposits {clabe, amount, currency?, trackingKey?, payerName?, payerBank?, payerDocument?, reference?, status?, duplicate?}
//   POST /_control/payouts/{id|reference}/{PAID|REJECTED|REFUNDED} {reason?, duplicate?}
//   GET  /_control/beneficiaries/{account}   -> {paid, amount}: how many payouts really reached
//        that account (recipient.account), so a test can prove a beneficiary was paid once.
//
// At most once (decisions.md "Money leaves at most once"): charges, refunds and payouts
// de-duplicate on our `reference` (the same reference gives the same answer and never a second
// charge, refund or payout), and each has a status-by-reference endpoint:
//   GET /charges/by-reference/{reference}    -> {id, reference, status}        (404: never received)
//   GET /payouts/{reference}                 -> {id, reference, status: processing|PAID|REJECTED|REFUNDED}
//   GET /refunds/{reference}                 -> {id, reference, chargeId, amount, status: refunded}
// Two modes make the answer lie about an operation that DID happen, as real networks do:
//   succeed_then_timeout: the charge/refund/payout is made (a payout is PAID at once), then the
//                         answer never comes (the caller times out);
//   succeed_then_error:   made, then answered 503.
// A test selects a mode per request like every other: POST /_control/behaviour {mode, forEmail,
// times} where forEmail matches the payout's recipient.email, the charge's buyer.email, or, for
// a refund, the buyer email of the refunded charge. timeout/error/garbage on a refund or payout
// do NOT make it (a failed request); decline refuses it explicitly (422 {status: rejected}).
//
// Status lookups (GET /charges/{id}, /charges/by-reference/{ref}, /payouts/{ref}, /refunds/{ref},
// /clabes/{ref}) answer a bare 404, as a proxy's error page does, for a rule
//   POST /_control/behaviour {mode: "bare_404", forReference?, forEmail?, times?}
// (forReference: the id or reference looked up; forEmail: the charge's buyer). Other requests
// never take a bare_404 rule. A voucher paid after it expired (the expiry notice first, then the
// payment): POST /_control/charges/{id}/paid {expiresFirst: true, notify?}. GET /clabes/{reference}
// -> {id, reference, clabe, bank?} (404 {error}: never issued). Benchmarks seed charges in bulk:
//   POST /_control/charges/bulk {charges: [{reference, amount, currency, method, notifyUrl}]} -> {ids}
//
// Notices are signed with the provider's NOTICE secret (not the one our calls carry as Bearer):
//   X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
import http from "node:http";
import { createHmac, randomBytes } from "node:crypto";
import { decide as marketDecide, paymentIndexOf, type Scenario } from "./market.ts";

export type SimulatedProvider = { code: string; secret: string; noticeSecret: string; port: number; rails: Array<{ method: string; country: string; minMinor: bigint; maxMinor: bigint }> };

type Mode = "accept" | "accept_instructions" | "decline" | "timeout" | "error" | "garbage" | "no_page" | "bad_clabe" | "duplicate_clabe" | "succeed_then_timeout" | "succeed_then_error";
/** With mode decline: why, in unified words; each provider answers it with its own code or message (DECLINE_ANSWERS). */
type Rule = { mode: Mode | "bare_404"; forEmail?: string; forReference?: string; times?: number; reason?: DeclineReason };
export type DeclineReason = "insufficient_funds" | "expired_card" | "do_not_honor" | "card_blocked" | "suspected_fraud" | "invalid_document" | "invalid_account" | "buyer_cancelled" | "limit_exceeded" | "issuer_unavailable" | "rate_limited" | "unmapped";

/**
 * How each simulated provider words a decline, as real ones do: pagosur answers ISO 8583
 * response codes, andespay its own upper-case codes, rapidpay one code ("rejected") and a
 * message in Spanish; `unmapped` is a code no decline rule knows. The seeded decline table
 * (prisma/migrations/…_routing) maps them back to the unified codes.
 */
export const DECLINE_ANSWERS: Record<string, Record<DeclineReason, { reason: string; message?: string }>> = {
  pagosur: { insufficient_funds: { reason: "51" }, expired_card: { reason: "54" }, do_not_honor: { reason: "05" }, card_blocked: { reason: "62" }, suspected_fraud: { reason: "59" }, invalid_document: { reason: "DOC" }, invalid_account: { reason: "14" }, buyer_cancelled: { reason: "17" }, limit_exceeded: { reason: "61" }, issuer_unavailable: { reason: "91" }, rate_limited: { reason: "rate_limited" }, unmapped: { reason: "N7" } },
  andespay: { insufficient_funds: { reason: "INSUFFICIENT_BALANCE" }, expired_card: { reason: "CARD_EXPIRED" }, do_not_honor: { reason: "ISSUER_DECLINED" }, card_blocked: { reason: "CARD_RESTRICTED" }, suspected_fraud: { reason: "FRAUD_SUSPECTED" }, invalid_document: { reason: "DOCUMENT_MISMATCH" }, invalid_account: { reason: "ACCOUNT_NOT_FOUND" }, buyer_cancelled: { reason: "USER_ABORTED" }, limit_exceeded: { reason: "DAILY_LIMIT" }, issuer_unavailable: { reason: "BANK_OFFLINE" }, rate_limited: { reason: "THROTTLED" }, unmapped: { reason: "VELOCITY_CHECK_42" } },
  rapidpay: { insufficient_funds: { reason: "rejected", message: "Saldo insuficiente en la cuenta" }, expired_card: { reason: "rejected", message: "Tarjeta vencida" }, do_not_honor: { reason: "rejected", message: "Transacción no honrar por el emisor" }, card_blocked: { reason: "rejected", message: "Tarjeta bloqueada" }, suspected_fraud: { reason: "rejected", message: "Rechazada por sospecha de fraude" }, invalid_document: { reason: "rejected", message: "Documento inválido para el titular" }, invalid_account: { reason: "rejected", message: "Cuenta inexistente" }, buyer_cancelled: { reason: "rejected", message: "Cancelado por el comprador" }, limit_exceeded: { reason: "rejected", message: "Límite excedido" }, issuer_unavailable: { reason: "rejected", message: "Emisor no disponible" }, rate_limited: { reason: "rate_limited" }, unmapped: { reason: "rejected", message: "Error desconocido 7731" } },
};
type Charge = { id: string; reference: string; status: "pending" | "paid" | "failed" | "expired" | "refunded"; amount: string; currency: string; method: string; notifyUrl: string; email?: string; deliveries: Array<{ status: string; httpStatus: number | null }>; refunds: Refund[] };
type Refund = { id: string; reference: string; chargeId: string; amount: string; status: "refunded" };
type SimPayout = { id: string; reference: string; status: string; notifyUrl: string; account: string; amount: string };

/** `t=<unix>,v1=<hex HMAC of "<t>.<body>">` with the notice secret (lib/providers/http-psp/transformers.ts verifies it). */
export function signNoticeHeader(noticeSecret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac("sha256", noticeSecret).update(`${at}.${body}`).digest("hex")}`;
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let data = "";
  for await (const chunk of req) data += chunk;
  return data;
}

export function startSimulatedProvider(p: SimulatedProvider, log: (s: string) => void = () => {}) {
  const charges = new Map<string, Charge>();
  let rules: Rule[] = [];
  // A market scenario (scripts/psp/market.ts), set by POST /_control/market {scenario}: charges of
  // bench buyers (m<i>@bench.example) are answered by it; every other charge by the rules.
  let scenario: Scenario | null = null;
  const market = {
    get on() {
      return scenario !== null;
    },
    decide(code: string, body: { buyer?: { email?: string } }): Rule & { delayMs?: number } {
      const i = paymentIndexOf(body.buyer?.email);
      if (!scenario || i === null) return pickRule(body.buyer?.email);
      return marketDecide(scenario, code, i);
    },
  };
  const base = `http://127.0.0.1:${p.port}`;
  const hanging = new Set<http.ServerResponse>();
  const clabes = new Map<string, { id: string; clabe: string; reference: string; notifyUrl: string }>();
  const clabeCalls: Array<{ reference: string; endUserRef: string }> = [];
  const payouts = new Map<string, SimPayout>();
  const refunds = new Map<string, Refund>();
  // account -> payouts that reached it (PAID), to show a beneficiary was paid once.
  const paidTo = new Map<string, { paid: number; amount: bigint }>();
  function markPaid(po: SimPayout) {
    if (po.status === "PAID") return;
    po.status = "PAID";
    const b = paidTo.get(po.account) ?? { paid: 0, amount: 0n };
    paidTo.set(po.account, { paid: b.paid + 1, amount: b.amount + BigInt(po.amount) });
  }
  let lastClabe: string | null = null;
  // Each provider issues CLABEs under its own institution code; only pagosur states the bank.
  const bankCode = p.code === "pagosur" ? "646" : p.code === "andespay" ? "138" : "710";

  function newClabe(): string {
    let first17 = `${bankCode}180`;
    for (const b of randomBytes(11)) first17 += String(b % 10);
    const w = [3, 7, 1];
    let sum = 0;
    for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * w[i % 3]!) % 10;
    return first17 + String((10 - (sum % 10)) % 10);
  }

  /** Sends a signed notice (twice with `duplicate`) and returns the HTTP statuses it got. */
  async function signedPost(url: string, payload: unknown, duplicate?: boolean): Promise<Array<number | null>> {
    const body = JSON.stringify(payload);
    const signature = signNoticeHeader(p.noticeSecret, body);
    const statuses: Array<number | null> = [];
    for (let i = 0; i < (duplicate ? 2 : 1); i++) {
      statuses.push(
        await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": signature }, body, signal: AbortSignal.timeout(10_000) })
          .then((r) => r.status)
          .catch(() => null),
      );
    }
    log(`[${p.code}] notice to ${url} -> ${statuses.join(",")}`);
    return statuses;
  }

  async function notify(c: Charge, opts: { duplicate?: boolean; delayMs?: number } = {}) {
    const body = JSON.stringify({ noticeId: `ntc_${randomBytes(8).toString("hex")}`, chargeId: c.id, reference: c.reference, status: c.status, amount: c.amount, currency: c.currency, occurredAt: new Date().toISOString() });
    const signature = signNoticeHeader(p.noticeSecret, body);
    const deliver = () =>
      fetch(c.notifyUrl, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": signature }, body, signal: AbortSignal.timeout(10_000) })
        .then((r) => (c.deliveries.push({ status: c.status, httpStatus: r.status }), log(`[${p.code}] notice ${c.id} ${c.status} -> ${r.status}`)))
        .catch((e) => (c.deliveries.push({ status: c.status, httpStatus: null }), log(`[${p.code}] notice ${c.id} failed: ${e.message}`)));
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    await deliver();
    if (opts.duplicate) await deliver();
  }

  function pickRule(email?: string): Rule & { mode: Mode } {
    const i = rules.findIndex((r) => r.mode !== "bare_404" && !r.forReference && (!r.forEmail || r.forEmail === email));
    if (i < 0) return { mode: "accept" };
    const rule = rules[i]!;
    if (rule.times !== undefined && --rule.times <= 0) rules.splice(i, 1);
    return rule as Rule & { mode: Mode };
  }

  /** A status lookup answered with a bare 404 (no JSON: a proxy's page) when a bare_404 rule matches it. */
  function bare404(res: http.ServerResponse, keys: Array<string | undefined>, email?: string): boolean {
    const i = rules.findIndex((r) => r.mode === "bare_404" && (r.forReference ? keys.includes(r.forReference) : !r.forEmail || r.forEmail === email));
    if (i < 0) return false;
    const rule = rules[i]!;
    if (rule.times !== undefined && --rule.times <= 0) rules.splice(i, 1);
    log(`[${p.code}] lookup ${keys.filter(Boolean).join("/")} -> bare 404`);
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<html><body><h1>404 Not Found</h1><hr>nginx</body></html>");
    return true;
  }
  const pickMode = (email?: string): Mode => pickRule(email).mode;

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const parts = url.pathname.split("/").filter(Boolean);
    try {
      // --- control API
      if (parts[0] === "_control") {
        if (req.method === "POST" && parts[1] === "market") {
          const b = JSON.parse((await readBody(req)) || "{}") as { scenario?: Scenario | null };
          scenario = b.scenario ?? null;
          return send(res, 200, { market: scenario?.name ?? null });
        }
        if (req.method === "POST" && parts[1] === "reset") return ((scenario = null), (rules = []), charges.clear(), clabes.clear(), (clabeCalls.length = 0), payouts.clear(), refunds.clear(), paidTo.clear(), send(res, 200, { ok: true }));
        if (req.method === "GET" && parts[1] === "behaviour") return send(res, 200, { rules });
        if (req.method === "POST" && parts[1] === "behaviour") {
          const rule = JSON.parse((await readBody(req)) || "{}") as Rule;
          rules.push(rule);
          return send(res, 200, { rules });
        }
        if (req.method === "GET" && parts[1] === "clabes") {
          const who = url.searchParams.get("endUserRef");
          const calls = clabeCalls.filter((c) => who === null || c.endUserRef === who);
          const references = [...new Set(calls.map((c) => c.reference))];
          return send(res, 200, { requests: calls.length, references, clabes: references.flatMap((r) => (clabes.has(r) ? [clabes.get(r)!.clabe] : [])) });
        }
        if (req.method === "GET" && parts[1] === "beneficiaries" && parts[2]) {
          const b = paidTo.get(decodeURIComponent(parts[2])) ?? { paid: 0, amount: 0n };
          return send(res, 200, { paid: b.paid, amount: b.amount.toString() });
        }
        if (req.method === "GET" && parts[1] === "charges" && parts[2]) {
          const c = charges.get(parts[2]) ?? [...charges.values()].find((x) => x.reference === parts[2]);
          return c ? send(res, 200, c) : send(res, 404, { error: "unknown charge" });
        }
        if (req.method === "GET" && parts[1] === "charges") return send(res, 200, { charges: [...charges.values()] });
        if (req.method === "POST" && parts[1] === "charges" && parts[2] === "bulk") {
          const body = JSON.parse((await readBody(req)) || "{}") as { charges: Array<{ reference: string; amount: string; currency: string; method: string; notifyUrl: string; email?: string }> };
          const ids = body.charges.map((b) => {
            const c: Charge = { id: `${p.code}_ch_${randomBytes(8).toString("hex")}`, reference: b.reference, status: "pending", amount: b.amount, currency: b.currency, method: b.method, notifyUrl: b.notifyUrl, email: b.email, deliveries: [], refunds: [] };
            charges.set(c.id, c);
            return c.id;
          });
          return send(res, 200, { ids });
        }
        if (req.method === "POST" && parts[1] === "charges" && parts[2] && parts[3]) {
          const c = charges.get(parts[2]) ?? [...charges.values()].find((x) => x.reference === parts[2]);
          if (!c) return send(res, 404, { error: "unknown charge" });
          const opts = JSON.parse((await readBody(req)) || "{}") as { notify?: boolean; duplicate?: boolean; delayMs?: number; expiresFirst?: boolean };
          if (opts.expiresFirst && parts[3] === "paid") {
            // The voucher expired (its notice sent and answered) before the payment arrived.
            c.status = "expired";
            await notify(c);
          }
          c.status = parts[3] as Charge["status"];
          if (opts.notify !== false) void notify(c, opts);
          return send(res, 200, c);
        }
        if (req.method === "POST" && parts[1] === "deposits") {
          const d = JSON.parse((await readBody(req)) || "{}") as Record<string, unknown> & { clabe: string; duplicate?: boolean };
          const acct = [...clabes.values()].find((c) => c.clabe === d.clabe);
          if (!acct) return send(res, 404, { error: "unknown clabe" });
          const { duplicate, ...rest } = d;
          const notice = { noticeId: `ntc_${randomBytes(8).toString("hex")}`, currency: "MXN", trackingKey: `SIM${randomBytes(10).toString("hex").toUpperCase()}`, receivedAt: new Date().toISOString(), ...rest };
          return send(res, 200, { notice, statuses: await signedPost(acct.notifyUrl, notice, duplicate) });
        }
        if (req.method === "POST" && parts[1] === "payouts" && parts[2] && parts[3]) {
          const po = payouts.get(parts[2]) ?? [...payouts.values()].find((x) => x.reference === parts[2]);
          if (!po) return send(res, 404, { error: "unknown payout" });
          const opts = JSON.parse((await readBody(req)) || "{}") as { reason?: string; duplicate?: boolean };
          if (parts[3] === "PAID") markPaid(po);
          else po.status = parts[3];
          const notice = { noticeId: `ntc_${randomBytes(8).toString("hex")}`, payoutId: po.id, reference: po.reference, status: parts[3], ...(opts.reason ? { reason: opts.reason } : {}) };
          return send(res, 200, { notice, statuses: await signedPost(po.notifyUrl, notice, opts.duplicate) });
        }
        return send(res, 404, { error: "unknown control" });
      }
      // --- buyer-facing hosted page
      if (parts[0] === "checkout" && parts[1]) {
        const c = charges.get(parts[1]);
        if (!c) return (res.writeHead(404), res.end("unknown charge"));
        if (req.method === "POST") {
          c.status = "paid";
          void notify(c);
          res.writeHead(303, { location: `${base}/checkout/${c.id}` });
          return res.end();
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><html lang="en"><title>${p.code} checkout</title><main><h1>${p.code}: pay ${c.amount} ${c.currency} (minor units)</h1><p>Status: <strong>${c.status}</strong></p><form method="post"><button>Pay</button></form></main></html>`);
      }
      // --- merchant-facing API
      if (req.headers.authorization !== `Bearer ${p.secret}`) return send(res, 401, { error: "unauthorized" });
      if (req.method === "POST" && parts[0] === "charges" && parts.length === 1) {
        const body = JSON.parse(await readBody(req)) as { reference: string; method: string; country: string; amount: string; currency: string; buyer?: { email?: string }; notifyUrl: string };
        const known = [...charges.values()].find((x) => x.reference === body.reference);
        // Our reference already charged here: the same charge again, never a second one.
        if (known) return send(res, 201, { id: known.id, status: known.status, redirectUrl: `${base}/checkout/${known.id}` });
        const picked: Rule & { delayMs?: number } = market.on ? market.decide(p.code, body) : pickRule(body.buyer?.email);
        const mode = picked.mode;
        log(`[${p.code}] charge ${body.reference} ${body.method}/${body.country} ${body.amount} -> ${mode}${picked.reason ? ` (${picked.reason})` : ""}`);
        if (picked.delayMs) await new Promise((r) => setTimeout(r, picked.delayMs));
        if (mode === "timeout") return void hanging.add(res);
        if (mode === "error") return send(res, 503, { error: "upstream maintenance" });
        if (mode === "garbage") return (res.writeHead(200, { "content-type": "text/html" }), res.end("<html>502 Bad Gateway</html>"));
        if (mode === "decline" && picked.reason) {
          const answer = DECLINE_ANSWERS[p.code]?.[picked.reason] ?? { reason: picked.reason };
          return send(res, picked.reason === "rate_limited" ? 429 : 402, { status: "declined", ...answer });
        }
        if (mode === "decline") return send(res, 402, { status: "declined", reason: "risk_rejected" });
        const rail = p.rails.find((r) => r.method === body.method && r.country === body.country);
        if (!rail) return send(res, 422, { status: "declined", reason: "method_not_supported" });
        const amount = BigInt(body.amount);
        if (amount < rail.minMinor || amount > rail.maxMinor) return send(res, 422, { status: "declined", reason: "amount_out_of_provider_limits" });
        const c: Charge = { id: `${p.code}_ch_${randomBytes(8).toString("hex")}`, reference: body.reference, status: "pending", amount: body.amount, currency: body.currency, method: body.method, notifyUrl: body.notifyUrl, email: body.buyer?.email, deliveries: [], refunds: [] };
        charges.set(c.id, c);
        if (mode === "succeed_then_timeout") return void hanging.add(res);
        if (mode === "succeed_then_error") return send(res, 503, { error: "upstream maintenance" });
        if (mode === "no_page") return send(res, 201, { id: c.id, status: "pending" });
        if (mode === "accept_instructions") return send(res, 201, { id: c.id, status: "pending", instructions: { reference: c.id.slice(-10).toUpperCase(), amount: c.amount, currency: c.currency } });
        return send(res, 201, { id: c.id, status: "pending", redirectUrl: `${base}/checkout/${c.id}` });
      }
      if (req.method === "POST" && (parts[0] === "clabes" || parts[0] === "payouts") && parts.length === 1) {
        const body = JSON.parse(await readBody(req)) as { reference: string; endUserRef?: string; notifyUrl: string; amount?: string; beneficiary?: { email?: string }; recipient?: { email?: string; account?: string } };
        const knownPayout = parts[0] === "payouts" ? payouts.get(body.reference) : undefined;
        // Our reference already taken: the same payout again, never a second disbursement.
        if (knownPayout) return send(res, 201, { id: knownPayout.id, status: knownPayout.status === "PAID" ? "processing" : knownPayout.status });
        if (parts[0] === "clabes") clabeCalls.push({ reference: body.reference, endUserRef: String(body.endUserRef ?? "") });
        const knownClabe = parts[0] === "clabes" ? clabes.get(body.reference) : undefined;
        // Our reference already has its account: the same CLABE again, never a second one.
        if (knownClabe) return send(res, 201, { id: knownClabe.id, clabe: knownClabe.clabe, ...(p.code === "pagosur" ? { bank: "STP" } : {}) });
        const mode = pickMode(parts[0] === "clabes" ? body.beneficiary?.email : body.recipient?.email);
        log(`[${p.code}] ${parts[0]} ${body.reference} -> ${mode}`);
        if (mode === "timeout") return void hanging.add(res);
        if (mode === "error") return send(res, 503, { error: "upstream maintenance" });
        if (mode === "garbage") return (res.writeHead(200, { "content-type": "text/html" }), res.end("<html>502 Bad Gateway</html>"));
        if (parts[0] === "payouts") {
          if (mode === "decline") return send(res, 422, { status: "rejected", reason: "beneficiary_account_invalid" });
          const po: SimPayout = { id: `${p.code}_po_${randomBytes(8).toString("hex")}`, reference: body.reference, status: "processing", notifyUrl: body.notifyUrl, account: String(body.recipient?.account ?? ""), amount: String(body.amount ?? "0") };
          payouts.set(body.reference, po);
          payouts.set(po.id, po);
          if (mode === "succeed_then_timeout" || mode === "succeed_then_error") {
            // The money reaches the beneficiary; only the answer is lost.
            markPaid(po);
            if (mode === "succeed_then_timeout") return void hanging.add(res);
            return send(res, 503, { error: "upstream maintenance" });
          }
          return send(res, 201, { id: po.id, status: po.status });
        }
        if (mode === "decline") return send(res, 422, { status: "declined", reason: "kyc_rejected" });
        if (mode === "no_page") return send(res, 201, { id: `${p.code}_acct_${randomBytes(6).toString("hex")}` });
        let clabe = mode === "duplicate_clabe" && lastClabe ? lastClabe : newClabe();
        if (mode === "bad_clabe") clabe = clabe.slice(0, 17) + String((Number(clabe[17]) + 1) % 10);
        const acct = { id: `${p.code}_acct_${randomBytes(6).toString("hex")}`, clabe, reference: body.reference, notifyUrl: body.notifyUrl };
        if (mode !== "bad_clabe" && mode !== "duplicate_clabe") {
          clabes.set(body.reference, acct);
          lastClabe = clabe;
        }
        // The account exists under our reference; only the answer is lost.
        if (mode === "succeed_then_timeout") return void hanging.add(res);
        if (mode === "succeed_then_error") return send(res, 503, { error: "upstream maintenance" });
        return send(res, 201, { id: acct.id, clabe, ...(p.code === "pagosur" ? { bank: "STP" } : {}) });
      }
      if (req.method === "GET" && parts[0] === "charges" && parts[1] === "by-reference" && parts[2]) {
        const c = [...charges.values()].find((x) => x.reference === parts[2]);
        if (bare404(res, [parts[2], c?.id], c?.email)) return;
        return c ? send(res, 200, { id: c.id, reference: c.reference, status: c.status }) : send(res, 404, { error: "unknown reference" });
      }
      if (req.method === "GET" && parts[0] === "charges" && parts[1]) {
        const c = charges.get(parts[1]);
        if (bare404(res, [parts[1], c?.reference], c?.email)) return;
        return c ? send(res, 200, { id: c.id, status: c.status }) : send(res, 404, { error: "unknown charge" });
      }
      if (req.method === "GET" && parts[0] === "clabes" && parts[1]) {
        const a = clabes.get(parts[1]);
        if (bare404(res, [parts[1]])) return;
        return a ? send(res, 200, { id: a.id, reference: a.reference, clabe: a.clabe, ...(p.code === "pagosur" ? { bank: "STP" } : {}) }) : send(res, 404, { error: "unknown reference" });
      }
      if (req.method === "GET" && parts[0] === "payouts" && parts[1]) {
        const po = payouts.get(parts[1]);
        if (bare404(res, [parts[1], po?.reference])) return;
        return po ? send(res, 200, { id: po.id, reference: po.reference, status: po.status }) : send(res, 404, { error: "unknown reference" });
      }
      if (req.method === "GET" && parts[0] === "refunds" && parts[1]) {
        const rf = refunds.get(parts[1]);
        if (bare404(res, [parts[1]])) return;
        return rf ? send(res, 200, rf) : send(res, 404, { error: "unknown reference" });
      }
      if (req.method === "POST" && parts[0] === "charges" && parts[1] && parts[2] === "refunds") {
        const c = charges.get(parts[1]);
        const body = JSON.parse((await readBody(req)) || "{}") as { amount?: string; reference?: string };
        const known = body.reference ? refunds.get(body.reference) : undefined;
        // Our reference (the claim id) already refunded: the same refund, never a second one.
        if (known) return send(res, 200, known);
        if (!c || c.status !== "paid") return send(res, 422, { status: "rejected", reason: "not_refundable" });
        const mode = pickMode(c.email);
        log(`[${p.code}] refund ${body.reference} of ${c.id} -> ${mode}`);
        if (mode === "timeout") return void hanging.add(res);
        if (mode === "error") return send(res, 503, { error: "upstream maintenance" });
        if (mode === "garbage") return (res.writeHead(200, { "content-type": "text/html" }), res.end("<html>502 Bad Gateway</html>"));
        if (mode === "decline") return send(res, 422, { status: "rejected", reason: "refund_window_closed" });
        const rf: Refund = { id: `${c.id}_rf_${randomBytes(4).toString("hex")}`, reference: body.reference ?? `anon_${randomBytes(4).toString("hex")}`, chargeId: c.id, amount: String(body.amount ?? c.amount), status: "refunded" };
        refunds.set(rf.reference, rf);
        c.refunds.push(rf);
        if (mode === "succeed_then_timeout") return void hanging.add(res);
        if (mode === "succeed_then_error") return send(res, 503, { error: "upstream maintenance" });
        return send(res, 200, rf);
      }
      return send(res, 404, { error: "not found" });
    } catch (err) {
      return send(res, 400, { error: (err as Error).message });
    }
  });
  return new Promise<{ url: string; stop: () => Promise<void> }>((resolve) =>
    server.listen(p.port, "127.0.0.1", () =>
      resolve({
        url: base,
        stop: () =>
          new Promise<void>((r) => {
            for (const h of hanging) h.destroy();
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

const M = (s: string) => BigInt(s);
/** The three simulated providers and the rails each serves (codes match lib/providers/registry.ts). */
export const SIMULATED_PROVIDERS = (ports: [number, number, number], secrets: [string, string, string], noticeSecrets: [string, string, string] = [`${secrets[0]}-notices`, `${secrets[1]}-notices`, `${secrets[2]}-notices`]): SimulatedProvider[] => [
  { code: "pagosur", port: ports[0], secret: secrets[0], noticeSecret: noticeSecrets[0], rails: [{ method: "pix", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "boleto", country: "BRA", minMinor: M("500"), maxMinor: M("5000000") }, { method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "oxxo", country: "MEX", minMinor: M("1000"), maxMinor: M("1000000") }, { method: "card", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }] },
  { code: "andespay", port: ports[1], secret: secrets[1], noticeSecret: noticeSecrets[1], rails: [{ method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "oxxo", country: "MEX", minMinor: M("1000"), maxMinor: M("1000000") }, { method: "bank_transfer", country: "COL", minMinor: M("100000"), maxMinor: M("5000000000") }, { method: "bank_transfer", country: "PER", minMinor: M("500"), maxMinor: M("10000000") }, { method: "bank_transfer", country: "CHL", minMinor: M("500"), maxMinor: M("20000000") }, { method: "card", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }] },
  { code: "rapidpay", port: ports[2], secret: secrets[2], noticeSecret: noticeSecrets[2], rails: [{ method: "pix", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "spei", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }, { method: "bank_transfer", country: "COL", minMinor: M("100000"), maxMinor: M("5000000000") }, { method: "card", country: "BRA", minMinor: M("100"), maxMinor: M("10000000") }, { method: "card", country: "MEX", minMinor: M("1000"), maxMinor: M("50000000") }] },
];

/** Env for the app: PROVIDER_<CODE>_URL / _SECRET (our calls) / _NOTICE_SECRET (their notices) of each simulated provider. */
export function providerEnv(providers: SimulatedProvider[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const p of providers) {
    env[`PROVIDER_${p.code.toUpperCase()}_URL`] = `http://127.0.0.1:${p.port}`;
    env[`PROVIDER_${p.code.toUpperCase()}_SECRET`] = p.secret;
    env[`PROVIDER_${p.code.toUpperCase()}_NOTICE_SECRET`] = p.noticeSecret;
  }
  return env;
}
