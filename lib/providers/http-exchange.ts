// One HTTP exchange with a provider's API, shared by the connectors that speak plain HTTP
// (lib/providers/http-psp, mercadopago, ebanx; Stripe goes through its own library): the call is
// bounded by the provider's timeout, and an exchange that ends without a whole answer says why in
// the decline table's transport words (`timeout`, `connection_failed`), never as a refusal.
export type Exchange = { ok: true; status: number; body: any } | { ok: false; reason: "timeout" | "connection_failed" };

export type ExchangeRequest = { method: "GET" | "POST" | "PUT" | "PATCH"; headers: Record<string, string>; body?: string; timeoutMs: number };

const failureOf = (err: unknown): "timeout" | "connection_failed" => (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError") ? "timeout" : "connection_failed");

/**
 * Sends `req` to `url` and reads the whole answer. `parse` reads its text as the connector's wire
 * format wants (exact decimals, plain JSON); what it cannot read is `body: undefined` (an answer,
 * but no usable one). An answer cut off before its body ended is no answer at all.
 */
export async function providerExchange(url: string, req: ExchangeRequest, parse: (text: string) => unknown): Promise<Exchange> {
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(req.timeoutMs) });
    status = res.status;
    text = await res.text();
  } catch (err) {
    return { ok: false, reason: failureOf(err) };
  }
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    body = undefined;
  }
  return { ok: true, status, body };
}

/** Why an answer was of no use: no readable body at all, or the provider's HTTP status. */
export const noUsableAnswer = (status: number, body: unknown): string => (body === undefined ? `unreadable_answer_${status}` : `http_${status}`);
