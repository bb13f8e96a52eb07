// A simulated Stripe for development and tests: a separate HTTP service speaking Stripe's own wire
// format (https://docs.stripe.com/api), so the real connector (lib/providers/stripe) and the
// official `stripe` library run against it unchanged:
// - `Authorization: Bearer sk_…` (401 with Stripe's error JSON otherwise,
//   https://docs.stripe.com/api/authentication);
// - form-encoded bodies with bracket notation (./form.ts), JSON answers of Stripe's objects
//   (./objects.ts), errors `{ error: { type, code, decline_code, message, param } }` with Stripe's
//   HTTP statuses (https://docs.stripe.com/api/errors);
// - `Idempotency-Key` honoured: the same key and parameters answer the first answer again, the
//   same key with other parameters is 400 idempotency_error (https://docs.stripe.com/api/idempotent_requests);
// - events POSTed to the webhook URL, signed as Stripe signs (./lifecycle.ts).
// Paths: ./api.ts. A hosted Checkout page at each session's `url` (GET /c/pay/<cs_id>), paid
// through the control API (./control.ts), which also holds the failure knobs (./state.ts).
import http from "node:http";
import { createHash } from "node:crypto";
import { safeEqual } from "../../../lib/platform/crypto/hash.ts";
import { parseForm } from "./form.ts";
import * as o from "./objects.ts";
import { createState } from "./state.ts";
import { createLifecycle } from "./lifecycle.ts";
import { createApi, type Answer } from "./api.ts";
import { serveControl } from "./control.ts";

export type StripeSimulatorOptions = { secret: string; noticeSecret: string; noticeUrl: string; port?: number; log?: (s: string) => void };

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, requestId: string) {
  res.writeHead(status, { "content-type": "application/json", "request-id": requestId, "stripe-version": o.API_VERSION });
  res.end(JSON.stringify(o.wire(body), null, 2));
}

function hostedPage(cs: o.Obj | undefined): string {
  if (!cs) return "<!doctype html><title>Not found</title><p>This Checkout Session does not exist.</p>";
  const amount = (cs.amount_total / 100).toFixed(2);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Stripe Checkout (simulated)</title></head><body><h1>Pay ${cs.currency.toUpperCase()} ${amount}</h1><p>Session ${cs.id}: ${cs.status}, ${cs.payment_status}.</p><p>Simulated: paid through the control API.</p></body></html>`;
}

export async function startStripeSimulator(opts: StripeSimulatorOptions): Promise<{ url: string; stop: () => Promise<void> }> {
  const log = opts.log ?? (() => {});
  const s = createState();
  s.webhookUrl = opts.noticeUrl;
  const hanging = new Set<http.ServerResponse>();
  let base = "";
  const life = createLifecycle(s, opts.noticeSecret, log);
  let route: ReturnType<typeof createApi>;

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const parts = url.pathname.split("/").filter(Boolean);
    const requestId = o.stripeId("req");
    try {
      if (parts[0] === "_control") return await serveControl({ s, life, base }, req, res, parts, await readBody(req));
      if (parts[0] === "c" && parts[1] === "pay" && req.method === "GET") {
        const cs = s.sessions.get(parts[2] ?? "");
        res.writeHead(cs ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
        return res.end(hostedPage(cs));
      }
      if (parts[0] === "hosted") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><title>Instructions (simulated)</title><p>${parts.slice(1).join(" ")}</p>`);
      }
      if (parts[0] !== "v1") return sendJson(res, 404, o.errorBody({ type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname}).` }), requestId);
      // https://docs.stripe.com/api/authentication: the secret key as a Bearer token.
      const auth = req.headers.authorization ?? "";
      if (!safeEqual(auth ?? "", `Bearer ${opts.secret}`)) {
        const shown = auth.startsWith("Bearer ") ? `${auth.slice(7, 15)}${"*".repeat(8)}` : "";
        return sendJson(res, 401, o.errorBody({ type: "invalid_request_error", message: auth ? `Invalid API Key provided: ${shown}` : "You did not provide an API key." }), requestId);
      }
      const raw = await readBody(req);
      const params = req.method === "GET" ? parseForm(url.search.slice(1)) : parseForm(raw);
      const key = req.method === "POST" ? (req.headers["idempotency-key"] as string | undefined) : undefined;
      const fingerprint = createHash("sha256").update(`${req.method} ${url.pathname} ${raw}`).digest("hex");
      if (key) {
        const seen = s.idempotent.get(key);
        if (seen && seen.fingerprint !== fingerprint) return sendJson(res, 400, o.errorBody({ type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` }), requestId);
        if (seen) {
          res.writeHead(seen.status, { "content-type": "application/json", "request-id": requestId, "idempotent-replayed": "true" });
          return res.end(seen.body);
        }
      }
      const answer: Answer = route(req.method ?? "GET", parts, params, url.pathname);
      log(`[stripe] ${req.method} ${url.pathname} -> ${"status" in answer ? answer.status : "hang" in answer ? "no answer" : "garbage"}`);
      if ("hang" in answer) {
        // Stripe saves the result of a request it carried out under its key, answered or not.
        if (key && answer.made) s.idempotent.set(key, { fingerprint, status: 200, body: JSON.stringify(o.wire(answer.made), null, 2) });
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if ("garbage" in answer) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end("<html>502 Bad Gateway</html>");
      }
      const body = JSON.stringify(o.wire(answer.body), null, 2);
      // Saved under the key: what was made (a 500 after making it included), or a refusal; a 429 or
      // a 5xx that made nothing may be retried with the same key.
      if (key && answer.made) s.idempotent.set(key, { fingerprint, status: 200, body: JSON.stringify(o.wire(answer.made), null, 2) });
      else if (key && answer.status !== 429 && answer.status < 500) s.idempotent.set(key, { fingerprint, status: answer.status, body });
      res.writeHead(answer.status, { "content-type": "application/json", "request-id": requestId, "stripe-version": o.API_VERSION });
      res.end(body);
    } catch (err) {
      log(`[stripe] ${req.method} ${url.pathname} failed: ${(err as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, o.errorBody({ type: "api_error", message: "An unknown error occurred." }), requestId);
    }
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const addr = server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
  route = createApi(s, life, base);
  return {
    url: base,
    stop: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
