// The merchant-facing API of the Mercado Pago simulator (./simulator.ts), at MP's own paths:
//   POST /v1/payments                 pix | bolbradesco | oxxo | clabe (X-Idempotency-Key honoured)
//   GET  /v1/payments/search?external_reference=…   {paging, results}
//   GET  /v1/payments/{id}
//   POST /v1/payments/{id}/refunds    {amount?}     (X-Idempotency-Key honoured)
//   GET  /v1/payments/{id}/refunds
//   POST /checkout/preferences        {items, external_reference, notification_url, …} -> {id, init_point, sandbox_init_point}
//   GET  /checkout/preferences/{id}
//   GET  /users/me
// Errors in MP's shape: {message, error, status, cause: [{code, description}]}.
import type http from "node:http";
import { minorOfText, num, wireJson, type Payment, type Preference, type Rule, type Store } from "./store.ts";
import { marketDecline } from "../market-real-providers.ts";

export type Hanging = Set<http.ServerResponse>;
/** `notify`: a payment's webhook, sent after the answer (MP notifies a payment's update, a refund included). */
export type ApiContext = { store: Store; base: string; hanging: Hanging; log: (s: string) => void; notify: (p: Payment) => void };

export function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(wireJson(body));
}
export const mpError = (res: http.ServerResponse, status: number, error: string, message: string, cause: Array<{ code: number | string; description: string }> = []) => sendJson(res, status, { message, error, status, cause });

/** A request body parsed with its money keys kept as exact text (MP reads JSON decimals exactly; so does this simulator). */
export function parseBody(raw: string): any {
  try {
    return JSON.parse(raw.replace(/("(?:transaction_amount|amount|unit_price)"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, '$1"$2"'));
  } catch {
    return undefined;
  }
}

const PAYMENT_METHODS: Record<string, string> = { pix: "BRL", bolbradesco: "BRL", oxxo: "MXN", clabe: "MXN" };
const PENDING_DETAIL: Record<string, string> = { pix: "pending_waiting_transfer", clabe: "pending_waiting_transfer", bolbradesco: "pending_waiting_payment", oxxo: "pending_waiting_payment" };

/**
 * Answers a POST once per X-Idempotency-Key: a repeated key gets the first answer again, and
 * nothing is made twice. The failure knobs: timeout (no answer, nothing made), error (500),
 * garbage (not JSON), succeed_then_timeout / succeed_then_error (made, then the answer is lost).
 */
export function idempotent(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, mode: string, make: () => { status: number; body: unknown }) {
  const key = req.headers["x-idempotency-key"];
  if (typeof key !== "string" || !key) return mpError(res, 400, "bad_request", "Header X-Idempotency-Key can't be null");
  const seen = ctx.store.idempotent.get(`${req.url}|${key}`);
  if (seen) {
    res.writeHead(seen.status, { "content-type": "application/json" });
    return res.end(seen.body);
  }
  if (mode === "timeout") return void ctx.hanging.add(res);
  if (mode === "error") return mpError(res, 500, "internal_server_error", "internal error");
  if (mode === "unavailable") return mpError(res, 503, "service_unavailable", "service unavailable");
  if (mode === "garbage") {
    res.writeHead(200, { "content-type": "text/html" });
    return res.end("<html><body>upstream hiccup</body></html>");
  }
  const out = make();
  const text = wireJson(out.body);
  if (out.status < 500) ctx.store.idempotent.set(`${req.url}|${key}`, { status: out.status, body: text });
  if (mode === "succeed_then_timeout") return void ctx.hanging.add(res);
  if (mode === "succeed_then_error") return mpError(res, 503, "service_unavailable", "service unavailable");
  res.writeHead(out.status, { "content-type": "application/json" });
  res.end(text);
}

/** A bench buyer's payment while a market scenario runs: its decision as a rule (a decline in MP's status_detail), and its latency. */
function marketRule(ctx: ApiContext, email: string): { rule: Rule; delayMs: number } | null {
  const d = ctx.store.market.decisionFor(email);
  if (!d) return null;
  const rule: Rule = d.mode === "accept" ? { mode: "accept" } : d.mode === "error" ? { mode: "unavailable" } : { mode: "decline", reason: marketDecline("mercadopago", d).code };
  return { rule, delayMs: d.delayMs ?? 0 };
}

async function createPayment(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, body: any) {
  const method = body?.payment_method_id;
  const currency = PAYMENT_METHODS[method];
  if (!currency) return mpError(res, 400, "bad_request", "Invalid payment_method_id");
  const amount = typeof body.transaction_amount === "string" ? minorOfText(body.transaction_amount, currency) : null;
  if (amount === null || amount <= 0n) return mpError(res, 400, "bad_request", "Invalid transaction_amount", [{ code: 4037, description: "Invalid transaction_amount" }]);
  if (typeof body.payer?.email !== "string") return mpError(res, 400, "bad_request", "payer.email must be a valid email");
  const market = marketRule(ctx, body.payer.email);
  const rule = market?.rule ?? ctx.store.pick(body.payer.email);
  if (market?.delayMs) await new Promise((r) => setTimeout(r, market.delayMs));
  if (rule.mode === "invalid") return mpError(res, 400, "bad_request", "invalid parameter", [{ code: rule.reason ?? "4000", description: "invalid parameter" }]);
  idempotent(ctx, req, res, rule.mode, () => {
    const declined = rule.mode === "decline";
    const p = ctx.store.newPayment({
      status: declined ? "rejected" : "pending",
      status_detail: declined ? (rule.reason ?? "cc_rejected_other_reason") : PENDING_DETAIL[method]!,
      payment_method_id: method,
      currency_id: currency,
      amount,
      description: body.description ?? null,
      external_reference: body.external_reference ?? null,
      notification_url: body.notification_url ?? null,
      payer: body.payer,
      preference_id: null,
    });
    ctx.log(`[mercadopago] payment ${p.id} ${method} ${p.status}/${p.status_detail} for ${p.external_reference}`);
    return { status: 201, body: ctx.store.render(p) };
  });
}

function createPreference(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, body: any) {
  const item = Array.isArray(body?.items) ? body.items[0] : null;
  const currency = typeof item?.currency_id === "string" ? item.currency_id : "BRL";
  const amount = typeof item?.unit_price === "string" ? minorOfText(item.unit_price, currency) : null;
  if (!item || amount === null || amount <= 0n) return mpError(res, 400, "bad_request", "items needed", [{ code: "invalid_items", description: "items needed" }]);
  const rule = ctx.store.pick(body.payer?.email);
  idempotent(ctx, req, res, rule.mode, () => {
    const pref = ctx.store.newPreference(body, currency, amount);
    const page = `${ctx.base}/checkout/v1/redirect?pref_id=${pref.id}`;
    return { status: 201, body: renderPreference(pref, page) };
  });
}

/** A preference in MP's wire shape (the fields of the reference's sample answer), amounts as decimals. */
function renderPreference(pref: Preference, page: string): unknown {
  const b = pref.body;
  const items = (b.items as any[]).map((i) => ({ id: i.id ?? "", picture_url: i.picture_url ?? "", title: i.title ?? "", description: i.description ?? "", category_id: i.category_id ?? "", currency_id: i.currency_id ?? pref.currency, quantity: i.quantity ?? 1, unit_price: num(String(i.unit_price)) }));
  const payer = b.payer ?? {};
  return {
    collector_id: 1,
    operation_type: "regular_payment",
    items,
    payer: { name: payer.name ?? "", surname: payer.surname ?? "", email: payer.email ?? "", date_created: "", phone: { area_code: "", number: "" }, identification: { type: "", number: "" }, address: { street_name: "", street_number: null, zip_code: "" } },
    back_urls: { success: b.back_urls?.success ?? "", pending: b.back_urls?.pending ?? "", failure: b.back_urls?.failure ?? "" },
    auto_return: b.auto_return ?? "",
    payment_methods: { excluded_payment_methods: [{ id: "" }], excluded_payment_types: [{ id: "" }], installments: null, default_payment_method_id: null, default_installments: null },
    client_id: "1",
    marketplace: "NONE",
    marketplace_fee: num("0"),
    shipments: { receiver_address: { zip_code: "", street_number: null, street_name: "", floor: "", apartment: "" } },
    notification_url: pref.notification_url,
    external_reference: pref.external_reference ?? "",
    additional_info: "",
    expires: false,
    expiration_date_from: null,
    expiration_date_to: null,
    date_created: pref.date_created,
    id: pref.id,
    init_point: page,
    sandbox_init_point: page.replace("/checkout/", "/sandbox/checkout/"),
  };
}

function refund(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, p: Payment, body: any) {
  const left = p.amount - p.refunds.filter((r) => r.status === "approved").reduce((s, r) => s + r.amount, 0n);
  const amount = body?.amount === undefined ? left : typeof body.amount === "string" ? minorOfText(body.amount, p.currency_id) : null;
  const rule = ctx.store.pick(String(p.payer.email ?? ""));
  idempotent(ctx, req, res, rule.mode, () => {
    if (p.status !== "approved") return { status: 400, body: { message: "Payment not refundable", error: "bad_request", status: 400, cause: [{ code: 2063, description: "The action requested is not valid for the current payment state" }] } };
    if (amount === null || amount <= 0n || amount > left) return { status: 400, body: { message: "Invalid refund amount", error: "bad_request", status: 400, cause: [{ code: 4040, description: "amount attribute must be positive and not greater than the remaining" }] } };
    if (rule.mode === "decline") return { status: 400, body: { message: "Refund refused", error: "bad_request", status: 400, cause: [{ code: rule.reason ?? 2063, description: "refund refused" }] } };
    const r = ctx.store.newRefund(p, amount);
    if (r.amount === left) ctx.store.touch(p, "refunded", "refunded");
    ctx.log(`[mercadopago] refund ${r.id} of ${p.id}`);
    setImmediate(() => ctx.notify(p));
    return { status: 201, body: ctx.store.renderRefund(r, p.currency_id) };
  });
}

/** True when the request was one of the API's (answered); false: not an API path. */
export async function serveApi(ctx: ApiContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL, raw: string): Promise<boolean> {
  const parts = url.pathname.split("/").filter(Boolean);
  const { store } = ctx;
  if (req.method === "GET" && url.pathname === "/users/me") return sendJson(res, 200, { id: 1, nickname: "TESTSIMULATOR", site_id: "MLB", email: "seller@testuser.com" }), true;
  if (parts[0] === "checkout" && parts[1] === "preferences") {
    if (req.method === "POST" && !parts[2]) return createPreference(ctx, req, res, parseBody(raw)), true;
    const pref = parts[2] ? store.preferences.get(parts[2]) : undefined;
    if (req.method === "GET" && parts[2]) return pref ? sendJson(res, 200, renderPreference(pref, `${ctx.base}/checkout/v1/redirect?pref_id=${pref.id}`)) : mpError(res, 404, "not_found", "Preference not found"), true;
    return false;
  }
  if (parts[0] !== "v1" || parts[1] !== "payments") return false;
  if (req.method === "POST" && parts.length === 2) return await createPayment(ctx, req, res, parseBody(raw)), true;
  if (req.method === "GET" && parts[2] === "search") {
    const ref = url.searchParams.get("external_reference");
    const results = ref === null ? [...store.payments.values()] : store.byReference(ref);
    const sorted = results.sort((a, b) => b.id - a.id).map((p) => store.render(p));
    return sendJson(res, 200, { paging: { total: sorted.length, limit: 30, offset: 0 }, results: sorted }), true;
  }
  const p = parts[2] ? store.payments.get(Number(parts[2])) : undefined;
  if (!p || store.denied.has(String(p.id))) return mpError(res, 404, "not_found", "Payment not found", [{ code: 2000, description: "Payment not found" }]), true;
  const down = store.outage.get(String(p.id)) ?? 0;
  if (req.method === "GET" && parts.length === 3 && down > 0) return store.outage.set(String(p.id), down - 1), mpError(res, 500, "internal_server_error", "internal error"), true;
  if (req.method === "GET" && parts.length === 3) return sendJson(res, 200, store.render(p)), true;
  if (parts[3] === "refunds" && req.method === "POST") return refund(ctx, req, res, p, raw ? parseBody(raw) : {}), true;
  if (parts[3] === "refunds" && req.method === "GET") return sendJson(res, 200, p.refunds.map((r) => store.renderRefund(r, p.currency_id))), true;
  return false;
}

