// The control API of a simulated provider (scripts/psp/simulator.ts, loopback only, no secret):
// tests and benchmarks switch its behaviours (rules, a market scenario), reset it, read what it
// holds, move charges and payouts to a status (with the notices a real provider would send), and
// make deposits arrive at a CLABE. The notices' answers (HTTP statuses) come back in the reply.
import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { Scenario } from "./market.ts";
import type { Rule } from "./behaviour.ts";
import type { Charge } from "./store.ts";
import type { SimContext } from "./context.ts";
import { readBody, send } from "./answers.ts";

/** Serves every /_control/… request (an unknown one answers 404). */
export async function serveControl(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[], url: URL): Promise<void> {
  const { p, store, behaviour, notices } = sim;
  if (req.method === "POST" && parts[1] === "market") {
    const b = JSON.parse((await readBody(req)) || "{}") as { scenario?: Scenario | null };
    behaviour.setScenario(b.scenario ?? null);
    return send(res, 200, { market: behaviour.scenario?.name ?? null });
  }
  if (req.method === "POST" && parts[1] === "reset") return (behaviour.reset(), store.reset(), send(res, 200, { ok: true }));
  if (req.method === "GET" && parts[1] === "behaviour") return send(res, 200, { rules: behaviour.rules });
  if (req.method === "POST" && parts[1] === "behaviour") {
    const rule = JSON.parse((await readBody(req)) || "{}") as Rule;
    behaviour.addRule(rule);
    return send(res, 200, { rules: behaviour.rules });
  }
  if (req.method === "GET" && parts[1] === "clabes") {
    const who = url.searchParams.get("endUserRef");
    const calls = store.clabeCalls.filter((c) => who === null || c.endUserRef === who);
    const references = [...new Set(calls.map((c) => c.reference))];
    return send(res, 200, { requests: calls.length, references, clabes: references.flatMap((r) => (store.clabes.has(r) ? [store.clabes.get(r)!.clabe] : [])) });
  }
  if (req.method === "GET" && parts[1] === "beneficiaries" && parts[2]) {
    const b = store.paidTo.get(decodeURIComponent(parts[2])) ?? { paid: 0, amount: 0n };
    return send(res, 200, { paid: b.paid, amount: b.amount.toString() });
  }
  if (req.method === "GET" && parts[1] === "charges" && parts[2]) {
    const c = store.chargeOf(parts[2]);
    return c ? send(res, 200, c) : send(res, 404, { error: "unknown charge" });
  }
  if (req.method === "GET" && parts[1] === "charges") return send(res, 200, { charges: [...store.charges.values()] });
  if (req.method === "POST" && parts[1] === "charges" && parts[2] === "bulk") {
    const body = JSON.parse((await readBody(req)) || "{}") as { charges: Array<{ reference: string; amount: string; currency: string; method: string; notifyUrl: string; email?: string }> };
    const ids = body.charges.map((b) => {
      const c: Charge = { id: `${p.code}_ch_${randomBytes(8).toString("hex")}`, reference: b.reference, status: "pending", amount: b.amount, currency: b.currency, method: b.method, notifyUrl: b.notifyUrl, email: b.email, deliveries: [], refunds: [] };
      store.charges.set(c.id, c);
      return c.id;
    });
    return send(res, 200, { ids });
  }
  if (req.method === "POST" && parts[1] === "charges" && parts[2] && parts[3] === "med") {
    // The payer's bank opened a PIX MED claim on a paid charge: a notice, the charge stays paid.
    const c = store.chargeOf(parts[2]);
    if (!c) return send(res, 404, { error: "unknown charge" });
    const opts = JSON.parse((await readBody(req)) || "{}") as { amount?: string; duplicate?: boolean };
    const notice = { noticeId: `ntc_${randomBytes(8).toString("hex")}`, chargeId: c.id, reference: c.reference, status: "med", ...(opts.amount ? { medAmount: opts.amount } : {}), occurredAt: new Date().toISOString() };
    return send(res, 200, { notice, statuses: await notices.signedPost(c.notifyUrl, notice, opts.duplicate) });
  }
  if (req.method === "POST" && parts[1] === "charges" && parts[2] && parts[3]) {
    const c = store.chargeOf(parts[2]);
    if (!c) return send(res, 404, { error: "unknown charge" });
    const opts = JSON.parse((await readBody(req)) || "{}") as { notify?: boolean; duplicate?: boolean; delayMs?: number; expiresFirst?: boolean };
    if (opts.expiresFirst && parts[3] === "paid") {
      // The voucher expired (its notice sent and answered) before the payment arrived.
      c.status = "expired";
      await notices.notify(c);
    }
    c.status = parts[3] as Charge["status"];
    if (opts.notify !== false) void notices.notify(c, opts);
    return send(res, 200, c);
  }
  if (req.method === "POST" && parts[1] === "deposits") {
    const d = JSON.parse((await readBody(req)) || "{}") as Record<string, unknown> & { clabe: string; duplicate?: boolean };
    const acct = [...store.clabes.values()].find((c) => c.clabe === d.clabe);
    if (!acct) return send(res, 404, { error: "unknown clabe" });
    const { duplicate, ...rest } = d;
    const notice = { noticeId: `ntc_${randomBytes(8).toString("hex")}`, currency: "MXN", trackingKey: `SIM${randomBytes(10).toString("hex").toUpperCase()}`, receivedAt: new Date().toISOString(), ...rest };
    return send(res, 200, { notice, statuses: await notices.signedPost(acct.notifyUrl, notice, duplicate) });
  }
  if (req.method === "POST" && parts[1] === "payouts" && parts[2] && parts[3]) {
    const po = store.payouts.get(parts[2]) ?? [...store.payouts.values()].find((x) => x.reference === parts[2]);
    if (!po) return send(res, 404, { error: "unknown payout" });
    const opts = JSON.parse((await readBody(req)) || "{}") as { reason?: string; duplicate?: boolean };
    if (parts[3] === "PAID") store.markPaid(po);
    else po.status = parts[3];
    const notice = { noticeId: `ntc_${randomBytes(8).toString("hex")}`, payoutId: po.id, reference: po.reference, status: parts[3], ...(opts.reason ? { reason: opts.reason } : {}) };
    return send(res, 200, { notice, statuses: await notices.signedPost(po.notifyUrl, notice, opts.duplicate) });
  }
  return send(res, 404, { error: "unknown control" });
}
