// Shared set-up of the buyer-side checkout API tests (checkout-buyer-*.test.ts; not a test file
// itself): each file's merchant (made in its before()), buyer data, session, selection and
// simulation requests, form posts and pages, page-text assertions, and the USD credit computed
// independently of the app.
import assert from "node:assert/strict";
import { API_URL, api, newMerchant } from "./helpers.ts";

export const CPF = "52998224725";
export const CURP = "PEPJ800101HDFRRN09";
export const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };

export type Merchant = Awaited<ReturnType<typeof newMerchant>>;
/** The file's merchant, set by newShopMerchant (each test file's before()). */
export let m: Merchant;
export const sk = () => m.sandbox.secretKey;

/** The merchant every test of a file sells for (Loja Azul), made in the file's before(). */
export async function newShopMerchant() {
  m = await newMerchant({ name: "Loja Azul" });
}

export const createSession = (body: Record<string, unknown>, key = sk()) => api("/checkout/sessions", { key, body });
export const select = (token: string, body: unknown) => api(`/checkout/sessions/${token}/select`, { body });
export const simulate = (txId: string, action: string, key = sk()) => api(`/payments/${txId}/simulate`, { key, body: { action } });
/** A same-origin form post of a buyer page, answered 303 (never followed). */
export const formPost = (path: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  fetch(`${API_URL}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...headers }, body: new URLSearchParams(form).toString(), redirect: "manual" });
export const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${API_URL}${path}`, { headers })).text();
// Page HTML is long: a failure names the pattern and a short excerpt, not the whole page.
export const excerpt = (text: string, re: RegExp) => {
  const i = text.search(re);
  return i < 0 ? text.slice(0, 200) : text.slice(Math.max(0, i - 100), i + 200);
};
export function has(text: string, re: RegExp, what?: string) {
  assert.ok(re.test(text), `${what ?? ""} expected ${re} in …${text.length > 400 ? text.replace(/<script[\s\S]*$/, "").slice(-300) : text}`);
}
export function hasNot(text: string, re: RegExp, what?: string) {
  assert.ok(!re.test(text), `${what ?? ""} unexpected ${re}: …${excerpt(text, re)}`);
}
export const tokenOf = (location: string | null) => /\/checkout\/(cs_[0-9A-Za-z]{24})/.exec(location ?? "")?.[1];

/** The USD credit less the markup: input ÷ rate × 0.98, half-up at the cent (as the API computes it, in integers). */
export const credit = (inputMinor: bigint, rateHundredths: bigint) => {
  const num = inputMinor * 98n;
  const den = rateHundredths;
  return Number((num * 2n + den) / (2n * den)) / 100;
};
