// A simulated EBANX (scripts/psp/ebanx/): a separate HTTP service on 127.0.0.1 speaking EBANX's
// wire format (./api.ts: its paths, integration_key in the JSON body, status words, error
// objects) and sending its RSA-SHA1-signed notifications (./notify.ts) to `noticeUrl`, the URL an
// operator registers in the EBANX Dashboard. `noticeSecret` is the PEM private key it signs with
// (ebanxNoticeKeys() makes a pair; the public half is the server's PROVIDER_EBANX_NOTICE_CERTIFICATE);
// given anything else it makes its own pair and returns the public half as `noticeCertificate`.
// Its control API (./control.ts) drives payments and payouts and sets failure knobs per email.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { parseExactJson } from "../../../lib/providers/ebanx/exact-json.ts";
import { EbanxStore } from "./store.ts";
import { serveApi } from "./api.ts";
import { Notifier } from "./notify.ts";
import { serveControl } from "./control.ts";
import { jsonText } from "./wire.ts";

export { ebanxNoticeKeys } from "./notify.ts";

/** `noticeCertificate`: the public half of the key notices are signed with; `noticeHeaders`: how a body would be signed (tests). */
export type EbanxSimulator = { url: string; stop: () => Promise<void>; noticeCertificate: string; noticeHeaders: (body: string) => Record<string, string> };

const isPrivateKey = (s: string) => /-----BEGIN (RSA )?PRIVATE KEY-----/.test(s);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (data += c));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

export async function startEbanxSimulator(opts: { secret: string; noticeSecret: string; noticeUrl: string; port?: number; log?: (s: string) => void }): Promise<EbanxSimulator> {
  const log = opts.log ?? (() => {});
  const store = new EbanxStore();
  const notifier = new Notifier(isPrivateKey(opts.noticeSecret) ? opts.noticeSecret.replace(/\\n/g, "\n") : null, opts.noticeUrl, log);
  const sockets = new Set<Socket>();
  const hanging = new Set<NodeJS.Timeout>();
  let baseUrl = "";

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", baseUrl);
      const text = await readBody(req);
      if (url.pathname.startsWith("/_control/")) return await serveControl({ store, notifier, baseUrl }, req, res, url, text);
      if (req.method === "GET" && url.pathname === "/checkout") {
        // The Payment Page stand-in: where /ws/request's redirect_url sends the buyer.
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><title>EBANX Checkout</title><p>EBANX payment page for ${url.searchParams.get("hash") ?? ""}</p>`);
      }
      if (req.method !== "POST" || !url.pathname.startsWith("/ws/")) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ status: "ERROR", status_code: "BP-SA-0", status_message: "Not found" }));
      }
      let body: unknown;
      try {
        // JSON, as the guides' curl examples send it; the form-encoded variant of the payout guides too.
        body = /json/.test(req.headers["content-type"] ?? "") || text.trim().startsWith("{") ? parseExactJson(text) : Object.fromEntries(new URLSearchParams(text));
      } catch {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ status: "ERROR", status_code: "BP-SA-0", status_message: "Invalid request body" }));
      }
      const reply = serveApi(store, opts.secret, baseUrl, url.pathname, body);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if ("hang" in reply) {
        // No answer within any client timeout: the socket is closed after a while.
        const t = setTimeout(() => (hanging.delete(t), res.destroy()), 20_000);
        hanging.add(t);
        return;
      }
      if ("garbage" in reply) {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><body>502 Bad Gateway</body></html>");
      }
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(jsonText(reply.body));
    } catch (err) {
      log(`ebanx simulator: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ERROR", status_message: "internal" }));
    }
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    noticeCertificate: notifier.publicKeyPem,
    noticeHeaders: (body) => notifier.headers(body),
    stop: async () => {
      for (const t of hanging) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
