// Calls for deposit accounts and payouts on the providers that speak the common JSON-over-HTTP
// protocol (lib/providers/http-psp.ts; the simulated PSPs speak it too):
//   POST /clabes   {reference, endUserRef, beneficiary, notifyUrl}       -> 201 {id, clabe, bank?}
//   POST /payouts  {reference, rail, country, currency, amount, recipient, notifyUrl}
//                                                                        -> 201 {id, status: "processing"}
// `reference` is our id: providers de-duplicate on it, so a retried call never issues twice.
// Notices of incoming transfers and payout outcomes are signed like charge notices.
import { providerConfigs } from "@/lib/providers/registry";

export type ProviderCallFailure = { ok: false; reason: string };

async function call(provider: string, path: string, body: unknown): Promise<{ ok: true; status: number; body: any } | ProviderCallFailure> {
  const cfg = providerConfigs().get(provider);
  if (!cfg) return { ok: false, reason: "provider_not_configured" };
  let res: Response;
  try {
    res = await fetch(`${cfg.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${cfg.secret}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
  } catch (err) {
    const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return { ok: false, reason: timeout ? "provider_timeout" : "provider_unreachable" };
  }
  let parsed: any;
  try {
    parsed = await res.json();
  } catch {
    return { ok: false, reason: `unreadable_answer_${res.status}` };
  }
  return { ok: true, status: res.status, body: parsed };
}

export type ClabeOutcome = { ok: true; providerRef: string | null; clabe: unknown; bank: string | null } | ProviderCallFailure;

export async function requestClabe(provider: string, req: { reference: string; endUserRef: string; beneficiary: { name: string; email: string | null }; notifyUrl: string }): Promise<ClabeOutcome> {
  const r = await call(provider, "/clabes", req);
  if (!r.ok) return r;
  if (r.status >= 500) return { ok: false, reason: `http_${r.status}` };
  if (r.status >= 400) return { ok: false, reason: String(r.body?.reason ?? `http_${r.status}`) };
  return { ok: true, providerRef: typeof r.body?.id === "string" ? r.body.id : null, clabe: r.body?.clabe, bank: typeof r.body?.bank === "string" && r.body.bank.trim() ? r.body.bank.trim() : null };
}

export type PayoutOutcome = { ok: true; providerRef: string } | ProviderCallFailure;

export async function requestPayout(
  provider: string,
  req: { reference: string; rail: string; country: string; currency: string; amount: string; recipient: unknown; notifyUrl: string },
): Promise<PayoutOutcome> {
  const r = await call(provider, "/payouts", req);
  if (!r.ok) return r;
  if (r.status >= 500) return { ok: false, reason: `http_${r.status}` };
  if (r.status >= 400 || r.body?.status === "rejected") return { ok: false, reason: String(r.body?.reason ?? `http_${r.status}`) };
  if (typeof r.body?.id !== "string") return { ok: false, reason: "unexpected_answer" };
  return { ok: true, providerRef: r.body.id };
}
