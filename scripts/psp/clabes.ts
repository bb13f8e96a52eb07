// The deposit accounts of a simulated provider (scripts/psp/simulator.ts, lib/providers/http-accounts.ts),
// behind its Bearer secret: POST /clabes issues a CLABE under the provider's institution code
// (modes as for charges, plus bad_clabe: a wrong check digit, duplicate_clabe: the last one again;
// no_page: an answer without a CLABE; rules match on beneficiary.email), de-duplicated on our
// `reference`; GET /clabes/{reference} looks one up. Every POST /clabes is counted for
// GET /_control/clabes.
import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { SimContext } from "./context.ts";
import { failedRequest, lostAnswer, readBody, send } from "./answers.ts";

/** Serves the request when it is a deposit-account one; false leaves it to the other handlers. */
export async function serveClabes(sim: SimContext, req: http.IncomingMessage, res: http.ServerResponse, parts: string[]): Promise<boolean> {
  if (req.method === "POST" && parts[0] === "clabes" && parts.length === 1) await issueClabe(sim, req, res);
  else if (req.method === "GET" && parts[0] === "clabes" && parts[1]) clabeByReference(sim, res, parts[1]);
  else return false;
  return true;
}

// Each provider issues CLABEs under its own institution code; only pagosur states the bank.
const bankCodeOf = (code: string) => (code === "pagosur" ? "646" : code === "andespay" ? "138" : "710");
const bankOf = (code: string) => (code === "pagosur" ? { bank: "STP" } : {});

/** A CLABE of the provider's bank with a valid check digit (weights 3, 7, 1). */
function newClabe(code: string): string {
  let first17 = `${bankCodeOf(code)}180`;
  for (const b of randomBytes(11)) first17 += String(b % 10);
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * w[i % 3]!) % 10;
  return first17 + String((10 - (sum % 10)) % 10);
}

async function issueClabe({ p, log, store, behaviour }: SimContext, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { reference: string; endUserRef?: string; notifyUrl: string; beneficiary?: { email?: string } };
  store.clabeCalls.push({ reference: body.reference, endUserRef: String(body.endUserRef ?? "") });
  const known = store.clabes.get(body.reference);
  // Our reference already has its account: the same CLABE again, never a second one.
  if (known) return send(res, 201, { id: known.id, clabe: known.clabe, ...bankOf(p.code) });
  const mode = behaviour.pickMode(body.beneficiary?.email);
  log(`[${p.code}] clabes ${body.reference} -> ${mode}`);
  if (failedRequest(res, mode, store.hanging)) return;
  if (mode === "decline") return send(res, 422, { status: "declined", reason: "kyc_rejected" });
  if (mode === "no_page") return send(res, 201, { id: `${p.code}_acct_${randomBytes(6).toString("hex")}` });
  let clabe = mode === "duplicate_clabe" && store.lastClabe ? store.lastClabe : newClabe(p.code);
  if (mode === "bad_clabe") clabe = clabe.slice(0, 17) + String((Number(clabe[17]) + 1) % 10);
  const acct = { id: `${p.code}_acct_${randomBytes(6).toString("hex")}`, clabe, reference: body.reference, notifyUrl: body.notifyUrl };
  if (mode !== "bad_clabe" && mode !== "duplicate_clabe") {
    store.clabes.set(body.reference, acct);
    store.lastClabe = clabe;
  }
  // The account exists under our reference; only the answer is lost.
  if (lostAnswer(res, mode, store.hanging)) return;
  return send(res, 201, { id: acct.id, clabe, ...bankOf(p.code) });
}

function clabeByReference({ p, store, behaviour }: SimContext, res: http.ServerResponse, reference: string): void {
  const a = store.clabes.get(reference);
  if (behaviour.bare404(res, [reference])) return;
  return a ? send(res, 200, { id: a.id, reference: a.reference, clabe: a.clabe, ...bankOf(p.code) }) : send(res, 404, { error: "unknown reference" });
}
