// Shared set-up of the hosted checkout API tests (checkout-sessions, checkout-select,
// checkout-pages; not a test file itself): each file's merchant (made in its before()), the
// buyer's data, and the session and select requests.
import { api, newMerchant } from "./helpers.ts";

export const CPF = "52998224725";
export const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
// The file's merchant's sandbox keys, set by newCheckoutMerchant (each test file's before()).
export let sk = "";
export let pk = "";

export async function newCheckoutMerchant() {
  const m = await newMerchant({ name: "Loja Azul" });
  sk = m.sandbox.secretKey;
  pk = m.sandbox.publishableKey;
}

export const createSession = (body: unknown, headers: Record<string, string> = {}, key = sk) => api("/checkout/sessions", { key, body, headers });
export const select = (token: string, body: unknown, headers: Record<string, string> = {}) => api(`/checkout/sessions/${token}/select`, { body, headers });
