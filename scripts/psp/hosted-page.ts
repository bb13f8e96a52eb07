// The buyer-facing hosted page of a simulated provider (scripts/psp/simulator.ts): a charge's page
// with a Pay button; paying it marks the charge paid and sends its notice, as a buyer paying at
// the provider would.
import type http from "node:http";
import type { SimContext } from "./context.ts";

/** GET shows /checkout/{chargeId}; POST pays it and answers 303 back to the page. */
export function serveHostedPage({ p, base, store, notices }: SimContext, req: http.IncomingMessage, res: http.ServerResponse, chargeId: string): void {
  const c = store.charges.get(chargeId);
  if (!c) return void (res.writeHead(404), res.end("unknown charge"));
  if (req.method === "POST") {
    c.status = "paid";
    void notices.notify(c);
    res.writeHead(303, { location: `${base}/checkout/${c.id}` });
    return void res.end();
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html lang="en"><title>${p.code} checkout</title><main><h1>${p.code}: pay ${c.amount} ${c.currency} (minor units)</h1><p>Status: <strong>${c.status}</strong></p><form method="post"><button>Pay</button></form></main></html>`);
}
