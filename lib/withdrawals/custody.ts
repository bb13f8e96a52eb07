// The custody provider that sends production withdrawals: an HTTP service (in tests and
// development, scripts/custody/simulator.ts). Requests carry our withdrawal id as the
// idempotency reference and an HMAC-SHA256 of the body (X-Custody-Signature); the provider
// de-duplicates by reference, so asking again can never send twice. Sending: only an explicit
// refusal (a 4xx with an error code) is a failure; a timeout, a 5xx or an unreadable answer is
// unknown. Asking for the status: only an explicit `status: failed` is a refusal. A 4xx there
// (401 bad_signature during a secret rotation, 403 from an allow-list, a bare 404 from a proxy)
// says nothing about the transfer, which may have left: it is unknown, asked again later.
import { createHmac } from "node:crypto";
import { config } from "@/lib/platform/config";
import { toDecimalString } from "@/lib/money/amount";
import type { Withdrawal } from "@/lib/generated/prisma/client";

export type CustodyOutcome =
  | { kind: "completed"; txHash: string; ref: string | null }
  | { kind: "pending"; ref: string | null }
  | { kind: "refused"; reason: string }
  | { kind: "not_found" }
  | { kind: "unknown"; reason: string };

export function custodyConfigured(): boolean {
  const c = config();
  return Boolean(c.CUSTODY_URL && c.CUSTODY_SECRET);
}

async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> | null } | { error: string }> {
  const c = config();
  const text = body === undefined ? "" : JSON.stringify(body);
  const signature = createHmac("sha256", c.CUSTODY_SECRET!).update(`${method} ${path}\n${text}`).digest("hex");
  try {
    const res = await fetch(`${c.CUSTODY_URL!.replace(/\/+$/, "")}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-custody-signature": signature },
      body: body === undefined ? undefined : text,
      signal: AbortSignal.timeout(c.CUSTODY_TIMEOUT_MS),
      redirect: "error",
    });
    const raw = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(raw);
      json = parsed && typeof parsed === "object" ? parsed : null;
    } catch {}
    return { status: res.status, json };
  } catch (err) {
    return { error: (err as Error).name === "TimeoutError" ? "timeout" : "network_error" };
  }
}

function read(r: Awaited<ReturnType<typeof call>>, lookup: "send" | "status"): CustodyOutcome {
  if ("error" in r) return { kind: "unknown", reason: r.error };
  const j = r.json;
  // The provider's own "no transfer under this reference" (JSON, error not_found): handed over again
  // under the same reference. A bare 404 (no such body) is some other server's answer: unknown.
  if (r.status === 404 && lookup === "status" && j?.error === "not_found") return { kind: "not_found" };
  if (r.status >= 200 && r.status < 300 && j) {
    const ref = typeof j.id === "string" ? j.id : null;
    if (j.status === "completed" && typeof j.txHash === "string" && /^(0x)?[0-9a-fA-F]{64}$/.test(j.txHash)) return { kind: "completed", txHash: j.txHash, ref };
    if (j.status === "pending") return { kind: "pending", ref };
    if (j.status === "failed" && typeof j.reason === "string") return { kind: "refused", reason: j.reason.slice(0, 100) };
    return { kind: "unknown", reason: "unreadable_answer" };
  }
  // Sending: an explicit refusal is a 4xx naming why (not 408/409/425/429, which say "try again").
  // A status lookup never fails on a 4xx: only the transfer's own `status: failed` (above) does.
  if (lookup === "send" && r.status >= 400 && r.status < 500 && ![404, 408, 409, 425, 429].includes(r.status) && typeof j?.error === "string") return { kind: "refused", reason: j.error.slice(0, 100) };
  return { kind: "unknown", reason: `http_${r.status}${typeof j?.error === "string" ? `_${j.error.slice(0, 40)}` : ""}` };
}

export async function sendWithdrawal(w: Withdrawal): Promise<CustodyOutcome> {
  return read(await call("POST", "/withdrawals", { reference: w.id, asset: w.asset, network: w.network, address: w.address, amount: toDecimalString(w.amountUsd, "USD") }), "send");
}

export async function withdrawalStatus(w: Withdrawal): Promise<CustodyOutcome> {
  return read(await call("GET", `/withdrawals/${encodeURIComponent(w.id)}`), "status");
}
