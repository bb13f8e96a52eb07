// The payouts of a simulated provider (scripts/psp/simulator.ts, lib/providers/http-accounts.ts),
// behind its Bearer secret: POST /payouts takes a disbursement (decline: 422 rejected; rules match
// on recipient.email), de-duplicated on our `reference`; succeed_then_timeout/succeed_then_error
// pay it and then lose the answer. GET /payouts/{reference} looks one up.
import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { SimContext } from "./context.ts";
import type { SimPayout } from "./store.ts";
import { failedRequest, lostAnswer, readBody, send } from "./answers.ts";

/** Serves the request when it is a payout one; false leaves it to the other handlers. */
export async function servePayouts(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[]): Promise<boolean> {
  if (req.method === "POST" && parts[0] === "payouts" && parts.length === 1) await createPayout(sim, req, res);
  else if (req.method === "GET" && parts[0] === "payouts" && parts[1]) payoutByReference(sim, res, parts[1]);
  else return false;
  return true;
}

async function createPayout({ p, log, store, behaviour }: SimContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { reference: string; notifyUrl: string; amount?: string; recipient?: { email?: string; account?: string } };
  const known = store.payouts.get(body.reference);
  // Our reference already taken: the same payout again, never a second disbursement.
  if (known) return send(res, 201, { id: known.id, status: known.status === "PAID" ? "processing" : known.status });
  const mode = behaviour.pickMode(body.recipient?.email);
  log(`[${p.code}] payouts ${body.reference} -> ${mode}`);
  if (failedRequest(res, mode, store.hanging)) return;
  if (mode === "decline") return send(res, 422, { status: "rejected", reason: "beneficiary_account_invalid" });
  const po: SimPayout = { id: `${p.code}_po_${randomBytes(8).toString("hex")}`, reference: body.reference, status: "processing", notifyUrl: body.notifyUrl, account: String(body.recipient?.account ?? ""), amount: String(body.amount ?? "0") };
  store.payouts.set(body.reference, po);
  store.payouts.set(po.id, po);
  if (mode === "succeed_then_timeout" || mode === "succeed_then_error") {
    // The money reaches the beneficiary; only the answer is lost.
    store.markPaid(po);
    lostAnswer(res, mode, store.hanging);
    return;
  }
  return send(res, 201, { id: po.id, status: po.status });
}

function payoutByReference({ store, behaviour }: SimContext, res: http.ServerResponse, reference: string): void {
  const po = store.payouts.get(reference);
  if (behaviour.bare404(res, [reference, po?.reference])) return;
  return po ? send(res, 200, { id: po.id, reference: po.reference, status: po.status }) : send(res, 404, { error: "unknown reference" });
}
