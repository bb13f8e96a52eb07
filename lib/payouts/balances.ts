// Payout balances, derived from the ledger (payout_available and payout_in_flight per currency).
import { db, type Tx } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";
import { bucketTotals } from "@/lib/ledger/post";
import type { Environment } from "@/lib/generated/prisma/enums";

export type CurrencyBalance = { available: bigint; inFlight: bigint };

/** Every currency the merchant's payout ledger has touched; USD is always there. */
export async function payoutBalances(tx: Pick<Tx, "ledgerEntry">, merchantId: string, environment: Environment): Promise<Map<string, CurrencyBalance>> {
  const rows = await tx.ledgerEntry.groupBy({
    by: ["account", "currency"],
    where: { merchantId, environment, account: { in: ["payout_available", "payout_in_flight"] } },
    _sum: { amount: true },
  });
  const out = new Map<string, CurrencyBalance>([["USD", { available: 0n, inFlight: 0n }]]);
  for (const r of rows) {
    const b = out.get(r.currency) ?? { available: 0n, inFlight: 0n };
    if (r.account === "payout_available") b.available += r._sum.amount ?? 0n;
    else b.inFlight += r._sum.amount ?? 0n;
    out.set(r.currency, b);
  }
  return out;
}

/** 2.10 `balances[]`: USD first, then by currency. `reserved` is what processing payouts hold. */
export function presentBalances(map: Map<string, CurrencyBalance>) {
  return [...map.entries()]
    .sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)))
    .map(([currency, b]) => ({ currency, available: toMajor(b.available, currency), pending: 0, reserved: toMajor(b.inFlight, currency) }));
}

export type MerchantContext = { merchant: { id: string }; environment: Environment };

/** GET /me/payout/balance (2.10), read in one snapshot. */
export async function getPayoutBalance(auth: MerchantContext, tx?: Tx) {
  const read = async (t: Tx) => {
    const balances = await payoutBalances(t, auth.merchant.id, auth.environment);
    const payin = await bucketTotals(t, auth.merchant.id, auth.environment);
    return {
      merchantId: auth.merchant.id,
      environment: auth.environment,
      balances: presentBalances(balances),
      transferableFromPayinUsd: toMajor(payin.available > 0n ? payin.available : 0n, "USD"),
    };
  };
  return tx ? read(tx) : db().$transaction(read, { isolationLevel: "RepeatableRead" });
}
