// The payin side of a simulated provider (scripts/psp/simulator.ts), behind its Bearer secret:
// charges (POST /charges: a hosted page, only instructions, no page, a decline in the provider's
// own words, or a failure), their status lookups by id and by our reference, and refunds of a paid
// charge. Both de-duplicate on our `reference`: the same reference gives the same answer and
// never a second charge or refund.
import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { SimContext } from "./context.ts";
import type { Charge, Refund } from "./store.ts";
import type { Rule } from "./behaviour.ts";
import { DECLINE_ANSWERS } from "./decline-answers.ts";
import { failedRequest, lostAnswer, readBody, send } from "./answers.ts";

/** Serves the request when it is a payin one; false leaves it to the other handlers. */
export async function servePayins(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[]): Promise<boolean> {
  if (req.method === "POST" && parts[0] === "charges" && parts.length === 1) await createCharge(sim, req, res);
  else if (req.method === "GET" && parts[0] === "charges" && parts[1] === "by-reference" && parts[2]) chargeByReference(sim, res, parts[2]);
  else if (req.method === "GET" && parts[0] === "charges" && parts[1]) chargeById(sim, res, parts[1]);
  else if (req.method === "GET" && parts[0] === "refunds" && parts[1]) refundByReference(sim, res, parts[1]);
  else if (req.method === "POST" && parts[0] === "charges" && parts[1] && parts[2] === "refunds") await createRefund(sim, req, res, parts[1]);
  else return false;
  return true;
}

async function createCharge({ p, base, log, store, behaviour }: SimContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { reference: string; method: string; country: string; amount: string; currency: string; buyer?: { email?: string }; notifyUrl: string; installments?: { count: number; total: string } };
  const known = [...store.charges.values()].find((x) => x.reference === body.reference);
  // Our reference already charged here: the same charge again, never a second one.
  if (known) return send(res, 201, { id: known.id, status: known.status, redirectUrl: `${base}/checkout/${known.id}` });
  const picked: Rule & { delayMs?: number } = behaviour.chargeRule(body);
  const mode = picked.mode;
  log(`[${p.code}] charge ${body.reference} ${body.method}/${body.country} ${body.amount} -> ${mode}${picked.reason ? ` (${picked.reason})` : ""}`);
  if (picked.delayMs) await new Promise((r) => setTimeout(r, picked.delayMs));
  if (failedRequest(res, mode, store.hanging)) return;
  if (mode === "decline" && picked.reason) {
    const answer = DECLINE_ANSWERS[p.code]?.[picked.reason] ?? { reason: picked.reason };
    return send(res, picked.reason === "rate_limited" ? 429 : 402, { status: "declined", ...answer });
  }
  if (mode === "decline") return send(res, 402, { status: "declined", reason: "risk_rejected" });
  const rail = p.rails.find((r) => r.method === body.method && r.country === body.country);
  if (!rail) return send(res, 422, { status: "declined", reason: "method_not_supported" });
  // A charge in installments at a provider that cannot split it is refused (our routing never asks one).
  if (body.installments && !p.installments) return send(res, 422, { status: "declined", reason: "installments_not_supported" });
  const amount = BigInt(body.amount);
  if (amount < rail.minMinor || amount > rail.maxMinor) return send(res, 422, { status: "declined", reason: "amount_out_of_provider_limits" });
  const c: Charge = { id: `${p.code}_ch_${randomBytes(8).toString("hex")}`, reference: body.reference, status: "pending", amount: body.amount, currency: body.currency, method: body.method, notifyUrl: body.notifyUrl, email: body.buyer?.email, deliveries: [], refunds: [], ...(body.installments ? { installments: { count: body.installments.count, total: body.installments.total } } : {}) };
  store.charges.set(c.id, c);
  if (lostAnswer(res, mode, store.hanging)) return;
  if (mode === "no_page") return send(res, 201, { id: c.id, status: "pending" });
  if (mode === "accept_instructions") return send(res, 201, { id: c.id, status: "pending", instructions: { reference: c.id.slice(-10).toUpperCase(), amount: c.amount, currency: c.currency } });
  return send(res, 201, { id: c.id, status: "pending", redirectUrl: `${base}/checkout/${c.id}` });
}

function chargeByReference({ store, behaviour }: SimContext, res: http.ServerResponse, reference: string): void {
  const c = [...store.charges.values()].find((x) => x.reference === reference);
  if (behaviour.bare404(res, [reference, c?.id], c?.email)) return;
  return c ? send(res, 200, { id: c.id, reference: c.reference, status: c.status }) : send(res, 404, { error: "unknown reference" });
}

function chargeById({ store, behaviour }: SimContext, res: http.ServerResponse, id: string): void {
  const c = store.charges.get(id);
  if (behaviour.bare404(res, [id, c?.reference], c?.email)) return;
  return c ? send(res, 200, { id: c.id, status: c.status }) : send(res, 404, { error: "unknown charge" });
}

function refundByReference({ store, behaviour }: SimContext, res: http.ServerResponse, reference: string): void {
  const rf = store.refunds.get(reference);
  if (behaviour.bare404(res, [reference])) return;
  return rf ? send(res, 200, rf) : send(res, 404, { error: "unknown reference" });
}

async function createRefund({ p, log, store, behaviour }: SimContext, req: http.IncomingMessage, res: http.ServerResponse, chargeId: string): Promise<void> {
  const c = store.charges.get(chargeId);
  const body = JSON.parse((await readBody(req)) || "{}") as { amount?: string; reference?: string };
  const known = body.reference ? store.refunds.get(body.reference) : undefined;
  // Our reference (the claim id) already refunded: the same refund, never a second one.
  if (known) return send(res, 200, known);
  if (!c || c.status !== "paid") return send(res, 422, { status: "rejected", reason: "not_refundable" });
  const mode = behaviour.pickMode(c.email);
  log(`[${p.code}] refund ${body.reference} of ${c.id} -> ${mode}`);
  if (failedRequest(res, mode, store.hanging)) return;
  if (mode === "decline") return send(res, 422, { status: "rejected", reason: "refund_window_closed" });
  const rf: Refund = { id: `${c.id}_rf_${randomBytes(4).toString("hex")}`, reference: body.reference ?? `anon_${randomBytes(4).toString("hex")}`, chargeId: c.id, amount: String(body.amount ?? c.amount), status: "refunded" };
  store.refunds.set(rf.reference, rf);
  c.refunds.push(rf);
  if (lostAnswer(res, mode, store.hanging)) return;
  return send(res, 200, rf);
}
