// Installments test fixtures: the hand calculation the API is checked against (integer cents,
// independent of lib/installments), and the payment a test starts from.
import assert from "node:assert/strict";
import { api, newMerchant } from "./helpers.ts";
import { halfUp, sk } from "./payments-fixtures.ts";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

/** Brazil's default shop fee per count, basis points (docs/integrators/installments.md). */
export const BR_FEE_BP = (n: number) => BigInt(249 + (n - 2) * 100);
export const MX_FEE_BP: Record<number, bigint> = { 3: 450n, 6: 750n, 9: 1050n, 12: 1350n, 18: 1950n };

/** Shop-paid: every installment the price over n rounded down, the last the remainder. */
export function shopPaid(priceCents: bigint, n: number, feeBp: bigint) {
  const each = priceCents / BigInt(n);
  return { count: n, amount: Number(each) / 100, lastAmount: Number(priceCents - each * BigInt(n - 1)) / 100, total: Number(priceCents) / 100, financingFee: Number(halfUp(priceCents * feeBp, 10_000n)) / 100, paidBy: "merchant" };
}

/**
 * Buyer-paid, the Price table by another route than the app's: the present value of 1 a month
 * for n months at rate r, summed term by term in exact fractions (numerator/denominator BigInt),
 * then price / that, rounded half-up to the cent.
 */
export function priceTableCents(priceCents: bigint, n: number, rateBp: bigint): bigint {
  // Σ_{k=1..n} 1/(1+r)^k = Σ 10000^k / (10000+r)^k over the common denominator (10000+r)^n.
  const a = 10_000n + rateBp;
  let num = 0n;
  for (let k = 1; k <= n; k++) num += 10_000n ** BigInt(k) * a ** BigInt(n - k);
  const den = a ** BigInt(n);
  return halfUp(priceCents * den, num);
}

/** Annual effective cost in percent by Newton's method on the monthly rate (the app bisects). */
export function cetPercent(priceCents: bigint, installmentCents: bigint[]): number {
  const p = Number(priceCents);
  let m = 0.02;
  for (let i = 0; i < 100; i++) {
    let f = -p;
    let d = 0;
    installmentCents.forEach((c, k) => {
      f += Number(c) / (1 + m) ** (k + 1);
      d -= ((k + 1) * Number(c)) / (1 + m) ** (k + 2);
    });
    const next = m - f / d;
    if (Math.abs(next - m) < 1e-14) break;
    m = next;
  }
  return ((1 + m) ** 12 - 1) * 100;
}

export async function cardMerchant(): Promise<CreatedMerchant> {
  return newMerchant();
}

/** The catalog entry of a rail, with `amount` in the rail's currency. */
export async function offerOf(m: CreatedMerchant, paymentMethodId: string, amount?: number) {
  const r = await api(`/payment-methods${amount !== undefined ? `?amount=${amount}` : ""}`, { key: sk(m) });
  assert.equal(r.status, 200, r.text);
  const entry = r.body.methods.find((x: any) => x.paymentMethodId === paymentMethodId);
  assert.ok(entry, `catalog lists ${paymentMethodId}`);
  return entry;
}

/** A card payment in the rail's own currency (the buyer pays exactly `amount`). */
export function cardPayment(m: CreatedMerchant, rail: "sbx_br_card" | "sbx_mx_card", amount: number, installments?: number, headers: Record<string, string> = {}) {
  const currency = rail === "sbx_br_card" ? "BRL" : "MXN";
  return api("/payments", { key: sk(m), body: { amount, currency, paymentMethodId: rail, ...(installments !== undefined ? { installments } : {}) }, headers });
}
