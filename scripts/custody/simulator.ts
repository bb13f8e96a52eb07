// A simulated custody provider (it sends crypto withdrawals), run as its own HTTP service on
// loopback like the PSP simulators (scripts/psp/simulator.ts), for development and tests.
// Protocol (lib/withdrawals/custody.ts): every call carries X-Custody-Signature, the hex
// HMAC-SHA256 of "<METHOD> <path>\n<body>" with the shared secret (401 otherwise).
//   POST /withdrawals {reference, asset, network, address, amount}
//        200 {id, reference, status: completed, txHash} | 202 {id, reference, status: pending}
//        | 422 {error} (an explicit refusal). De-duplicated on `reference`: a reference already
//        received is answered with its state, whatever the mode, and never sent twice.
//   GET  /withdrawals/{reference}  -> 200 {id, reference, status, txHash} | 404 {error: not_found}
// Behaviours, chosen per request (POST /_control/behaviour {mode, forAddress?, forReference?, times?,
// on?: send | status, replace?}; default accept; replace drops the earlier rules for the same target). Sending (on: send, the default):
//   accept | pending (completes on POST /_control/withdrawals/{reference}/complete) | refuse (422)
//   | error (503, nothing sent) | garbage (200 with an HTML body, nothing sent)
//   | succeed_then_timeout (sent, then the answer never comes) | succeed_then_error (sent, then 503)
// Status lookups (on: status), whatever the transfer's state: unauthorized (401 bad_signature, as
// during a secret rotation) | forbidden (403 ip_not_allowed, an allow-list) | bare_not_found (404
// with a plain-text body, as a proxy answers) | error (503). POST /_control/behaviour/clear
// {forAddress?, forReference?} drops the rules for that address or reference.
// GET /_control/withdrawals/{reference} -> {requests, lookups, sent}: how often we asked to send,
// how often we asked for the status, how often money left.
// POST /_control/withdrawals/{reference}/fail {reason?} fails a pending transfer (nothing left).
// Notices: with `noticeUrl`, the provider tells the service of every outcome it reaches after the
// call (a transfer sent, a pending one completed or failed) by a signed POST
// {type: withdrawal, noticeId, reference, status, txHash | reason}, as real custodians do; a
// rule's `notify` (default: the simulator's `notify` option) turns that off or on per transfer,
// and `noticeDelayMs` delays it. POST /_control/notices/deposit {address, network, amount,
// confirmations, txHash?, logIndex?, from?, asset?} sends a signed deposit notice for a top-up
// address (logIndex: the transfer's log index in its transaction, 0 unless given; give the same
// txHash with other indexes for a batch payout; from: the sender, a new well-formed address of
// the network unless given). Signature
// (with `noticeSecret`, not the secret our calls are signed with):
// X-Custody-Signature: t=<unix s>,v1=hex HMAC-SHA256 of "<t>.POST <notice path>\n<body>".
import http from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import bs58check from "bs58check";

type Mode = "accept" | "pending" | "refuse" | "error" | "garbage" | "succeed_then_timeout" | "succeed_then_error" | "unauthorized" | "forbidden" | "bare_not_found";
type Rule = { mode: Mode; on?: "send" | "status"; forAddress?: string; forReference?: string; times?: number; notify?: boolean; noticeDelayMs?: number };
type Transfer = { id: string; reference: string; status: "pending" | "completed" | "failed"; txHash: string | null; reason?: string; network: string; address: string; amount: string; notify: boolean; noticeDelayMs: number };

export type CustodySimulator = { url: string; secret: string; noticeSecret: string; port: number; notices: () => number; close: () => Promise<void> };

const hash = (network: string) => (network === "TRON" ? "" : "0x") + randomBytes(32).toString("hex");
/** A well-formed address nobody holds: TRON base58check with 0x41, else 0x + 40 hex. */
const sender = (network: string) => (network === "TRON" ? bs58check.encode(Buffer.concat([Buffer.from([0x41]), randomBytes(20)])) : `0x${randomBytes(20).toString("hex")}`);

export async function startCustodySimulator(opts: { port?: number; secret: string; noticeSecret: string; host?: string; noticeUrl?: string; notify?: boolean }): Promise<CustodySimulator> {
  const transfers = new Map<string, Transfer>();
  const requests = new Map<string, number>();
  const lookups = new Map<string, number>();
  let rules: Rule[] = [];
  const held = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let sentNotices = 0;

  // A signed notice to the service; a lost one is the service's status job's to recover.
  const notify = (body: Record<string, unknown>, delayMs = 0) => {
    if (!opts.noticeUrl) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const raw = JSON.stringify({ noticeId: `cn_${randomBytes(10).toString("hex")}`, ...body });
      const t = Math.floor(Date.now() / 1000);
      const path = new URL(opts.noticeUrl!).pathname;
      const v1 = createHmac("sha256", opts.noticeSecret).update(`${t}.POST ${path}\n${raw}`).digest("hex");
      sentNotices++;
      fetch(opts.noticeUrl!, { method: "POST", headers: { "content-type": "application/json", "x-custody-signature": `t=${t},v1=${v1}` }, body: raw, signal: AbortSignal.timeout(5_000) }).catch(() => {});
    }, delayMs);
    timers.add(timer);
  };
  const notifyOutcome = (t: Transfer) => {
    if (!t.notify || t.status === "pending") return;
    notify(t.status === "completed" ? { type: "withdrawal", reference: t.reference, status: "completed", txHash: t.txHash } : { type: "withdrawal", reference: t.reference, status: "failed", reason: t.reason ?? "failed" }, t.noticeDelayMs);
  };

  const signed = (method: string, path: string, body: string, header: string | undefined) => {
    const want = createHmac("sha256", opts.secret).update(`${method} ${path}\n${body}`).digest();
    const got = Buffer.from(header ?? "", "hex");
    return got.length === want.length && timingSafeEqual(got, want);
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const ruleFor = (on: "send" | "status", address: string | undefined, reference: string): Rule | null => {
    const i = rules.findIndex((r) => (r.on ?? "send") === on && (!r.forAddress || r.forAddress === address) && (!r.forReference || r.forReference === reference));
    if (i === -1) return null;
    const r = rules[i]!;
    if (r.times !== undefined && --r.times <= 0) rules.splice(i, 1);
    return r;
  };
  /** The answers a rule gives on a send and on a status lookup alike (no transfer made); false for the others. */
  const answerFailure = (res: http.ServerResponse, mode: Mode | undefined): boolean => {
    switch (mode) {
      case "unauthorized":
        json(res, 401, { error: "bad_signature" });
        return true;
      case "forbidden":
        json(res, 403, { error: "ip_not_allowed" });
        return true;
      case "bare_not_found":
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("Not Found");
        return true;
      case "error":
        json(res, 503, { error: "unavailable" });
        return true;
      default:
        return false;
    }
  };
  const view = (t: Transfer) => ({ id: t.id, reference: t.reference, status: t.status, txHash: t.txHash, ...(t.status === "failed" ? { reason: t.reason ?? "failed" } : {}) });

  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://custody");
      const path = url.pathname;
      if (path.startsWith("/_control/")) {
        if (req.method === "POST" && path === "/_control/behaviour") {
          const rule = JSON.parse(body || "{}") as Rule & { replace?: boolean };
          // replace: this rule takes over from the ones for the same address or reference, with no gap between.
          if (rule.replace) rules = rules.filter((r) => (r.on ?? "send") !== (rule.on ?? "send") || r.forAddress !== rule.forAddress || r.forReference !== rule.forReference);
          rules.push(rule);
          return json(res, 200, { rules: rules.length });
        }
        if (req.method === "POST" && path === "/_control/behaviour/clear") {
          const c = JSON.parse(body || "{}") as { forAddress?: string; forReference?: string };
          rules = rules.filter((r) => !((c.forAddress && r.forAddress === c.forAddress) || (c.forReference && r.forReference === c.forReference)));
          return json(res, 200, { rules: rules.length });
        }
        if (req.method === "POST" && path === "/_control/reset") {
          rules = [];
          return json(res, 200, {});
        }
        if (req.method === "POST" && path === "/_control/notices/deposit") {
          const d = JSON.parse(body || "{}") as { address?: string; network?: string; asset?: string; amount?: string; confirmations?: number; txHash?: string; logIndex?: number; from?: string };
          notify({ type: "deposit", address: d.address, asset: d.asset ?? "USDT", network: d.network, amount: d.amount, confirmations: d.confirmations ?? 0, txHash: d.txHash ?? hash(d.network ?? "TRON"), logIndex: d.logIndex ?? 0, from: d.from ?? sender(d.network ?? "TRON") });
          return json(res, 202, { queued: true });
        }
        const m = path.match(/^\/_control\/withdrawals\/([^/]+)(\/complete|\/fail)?$/);
        if (m && req.method === "GET") return json(res, 200, { requests: requests.get(m[1]!) ?? 0, lookups: lookups.get(m[1]!) ?? 0, sent: transfers.get(m[1]!)?.status === "completed" ? 1 : 0, transfer: transfers.get(m[1]!) ?? null });
        if (m && m[2] && req.method === "POST") {
          const t = transfers.get(m[1]!);
          if (!t) return json(res, 404, { error: "not_found" });
          if (t.status === "pending" && m[2] === "/complete") {
            t.status = "completed";
            t.txHash ??= hash(t.network);
            notifyOutcome(t);
          } else if (t.status === "pending" && m[2] === "/fail") {
            t.status = "failed";
            t.reason = (JSON.parse(body || "{}") as { reason?: string }).reason ?? "compliance_rejected";
            notifyOutcome(t);
          }
          return json(res, 200, view(t));
        }
        if (req.method === "GET" && path === "/_control/notices") return json(res, 200, { sent: sentNotices });
        return json(res, 404, { error: "not_found" });
      }
      if (!signed(req.method ?? "", path, body, req.headers["x-custody-signature"] as string | undefined)) return json(res, 401, { error: "bad_signature" });
      if (req.method === "GET") {
        const m = path.match(/^\/withdrawals\/([^/]+)$/);
        const reference = m ? decodeURIComponent(m[1]!) : "";
        const t = transfers.get(reference);
        if (m) lookups.set(reference, (lookups.get(reference) ?? 0) + 1);
        if (answerFailure(res, m ? ruleFor("status", t?.address, reference)?.mode : undefined)) return;
        return t ? json(res, 200, view(t)) : json(res, 404, { error: "not_found" });
      }
      if (req.method !== "POST" || path !== "/withdrawals") return json(res, 404, { error: "not_found" });
      let input: { reference?: string; network?: string; address?: string; amount?: string };
      try {
        input = JSON.parse(body);
      } catch {
        return json(res, 400, { error: "invalid_json" });
      }
      const reference = String(input.reference ?? "");
      if (!reference || !input.address || !input.network || !input.amount) return json(res, 400, { error: "missing_fields" });
      requests.set(reference, (requests.get(reference) ?? 0) + 1);
      const known = transfers.get(reference);
      if (known) return known.status === "failed" ? json(res, 422, { error: known.reason ?? "failed" }) : json(res, known.status === "completed" ? 200 : 202, view(known));
      const rule = ruleFor("send", input.address, reference) ?? { mode: "accept" as const };
      const mode = rule.mode;
      if (answerFailure(res, mode)) return;
      const make = (status: Transfer["status"]) => {
        const t: Transfer = { id: `cw_${randomBytes(8).toString("hex")}`, reference, status, txHash: status === "completed" ? hash(input.network!) : null, network: input.network!, address: input.address!, amount: input.amount!, notify: rule.notify ?? opts.notify ?? true, noticeDelayMs: rule.noticeDelayMs ?? 0 };
        transfers.set(reference, t);
        notifyOutcome(t);
        return t;
      };
      switch (mode) {
        case "accept":
          return json(res, 200, view(make("completed")));
        case "pending":
          return json(res, 202, view(make("pending")));
        case "refuse":
          return json(res, 422, { error: "address_blocked" });
        case "garbage":
          res.writeHead(200, { "content-type": "text/html" });
          return res.end("<html>upstream error</html>");
        case "succeed_then_error":
          make("completed");
          return json(res, 503, { error: "unavailable" });
        case "succeed_then_timeout":
          make("completed");
          held.add(res); // never answered; closed when the caller gives up or the simulator stops
          res.on("close", () => held.delete(res));
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    secret: opts.secret,
    noticeSecret: opts.noticeSecret,
    port,
    notices: () => sentNotices,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const r of held) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
