// A simulated Mercado Pago for development and tests: a separate HTTP service speaking MP's wire
// format (lib/providers/mercadopago/ is the connector that calls it): Bearer access token (401
// in MP's error shape otherwise), JSON bodies with decimal amounts, X-Idempotency-Key honoured
// on every POST, MP's status words, its paths (./api.ts), Checkout Pro's page at init_point and
// the tickets at ticket_url / external_resource_url (./control.ts), and webhooks signed with
// x-signature / x-request-id to the payment's notification_url, else `noticeUrl` (./webhooks.ts).
// Failure knobs and the payment moves of a test are its control API (./control.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { safeEqual } from "../../../lib/platform/crypto/hash.ts";
import { createStore } from "./store.ts";
import { mpError, serveApi, type ApiContext } from "./api.ts";
import { serveBuyerPage, serveControl } from "./control.ts";
import { createWebhooks } from "./webhooks.ts";

export type MercadoPagoSimulatorOptions = { secret: string; noticeSecret: string; noticeUrl: string; port?: number; log?: (s: string) => void };

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (s += c));
    req.on("end", () => resolve(s));
    req.on("error", reject);
  });
}

export async function startMercadoPagoSimulator(opts: MercadoPagoSimulatorOptions): Promise<{ url: string; stop: () => Promise<void> }> {
  const log = opts.log ?? (() => {});
  const hanging = new Set<http.ServerResponse>();
  let ctx: ApiContext | null = null;
  const webhooks = createWebhooks(opts.noticeSecret, opts.noticeUrl, log);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    try {
      const raw = await readBody(req);
      if (url.pathname.startsWith("/_control/")) {
        let body: any = {};
        try {
          body = raw ? JSON.parse(raw) : {};
        } catch {}
        return await serveControl(ctx!.store, webhooks, req, res, url, body);
      }
      if (req.method === "GET" && serveBuyerPage(ctx!.store, res, url)) return;
      if (!safeEqual(req.headers.authorization ?? "", `Bearer ${opts.secret}`)) return mpError(res, 401, "unauthorized", "invalid access token");
      if (await serveApi(ctx!, req, res, url, raw)) return;
      return mpError(res, 404, "not_found", `resource ${url.pathname} not found`);
    } catch (err) {
      return mpError(res, 500, "internal_server_error", (err as Error).message);
    }
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = { store: createStore(base), base, hanging, log, notify: (p) => void webhooks.notify(p) };
  return {
    url: base,
    stop: () =>
      new Promise<void>((r) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
