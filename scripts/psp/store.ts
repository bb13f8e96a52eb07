// What one simulated provider (scripts/psp/simulator.ts) holds in memory: its charges, refunds,
// CLABEs and payouts by id and by our reference, the CLABE requests it was sent, what reached
// each beneficiary, and the requests it never answers (closed when it stops).
import type http from "node:http";

export type Refund = { id: string; reference: string; chargeId: string; amount: string; status: "refunded" };
export type Charge = { id: string; reference: string; status: "pending" | "paid" | "failed" | "expired" | "refunded"; amount: string; currency: string; method: string; notifyUrl: string; email?: string; deliveries: Array<{ status: string; httpStatus: number | null }>; refunds: Refund[]; installments?: { count: number; total: string } };
export type SimPayout = { id: string; reference: string; status: string; notifyUrl: string; account: string; amount: string };
export type SimClabe = { id: string; clabe: string; reference: string; notifyUrl: string };

export type Store = ReturnType<typeof createStore>;

export function createStore() {
  const charges = new Map<string, Charge>();
  const hanging = new Set<http.ServerResponse>();
  // By our reference.
  const clabes = new Map<string, SimClabe>();
  const clabeCalls: Array<{ reference: string; endUserRef: string }> = [];
  // By our reference and by id.
  const payouts = new Map<string, SimPayout>();
  // By our reference.
  const refunds = new Map<string, Refund>();
  // account -> payouts that reached it (PAID), to show a beneficiary was paid once.
  const paidTo = new Map<string, { paid: number; amount: bigint }>();
  return {
    charges,
    hanging,
    clabes,
    clabeCalls,
    payouts,
    refunds,
    paidTo,
    /** The last CLABE issued (duplicate_clabe answers it again); a reset keeps it. */
    lastClabe: null as string | null,
    /** A charge by id, or by our reference. */
    chargeOf: (key: string) => charges.get(key) ?? [...charges.values()].find((x) => x.reference === key),
    markPaid(po: SimPayout) {
      if (po.status === "PAID") return;
      po.status = "PAID";
      const b = paidTo.get(po.account) ?? { paid: 0, amount: 0n };
      paidTo.set(po.account, { paid: b.paid + 1, amount: b.amount + BigInt(po.amount) });
    },
    /** POST /_control/reset: forgets every record. */
    reset() {
      charges.clear();
      clabes.clear();
      clabeCalls.length = 0;
      payouts.clear();
      refunds.clear();
      paidTo.clear();
    },
  };
}
