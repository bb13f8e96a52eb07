// Payout balances: the ledger's running totals of payout_available and payout_in_flight per
// currency (lib/ledger/post.ts keeps them with every posting).
import { db, type Tx } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import { accountTotals, bucketTotals, PAYOUT_BUCKETS } from "@/lib/ledger/post";
import type { Environment } from "@/lib/generated/prisma/enums";

export type CurrencyBalance = { available: bigint; inFlight: bigint };

/** Every currency the merchant's payout ledger has touched; USD is always there. */
export async function payoutBalances(tx: Pick<Tx, "ledgerBalance">, merchantId: string, environment: Environment): Promise<Map<string, CurrencyBalance>> {
  const out = new Map<string, CurrencyBalance>([["USD", { available: 0n, inFlight: 0n }]]);
  for (const r of await accountTotals(tx, merchantId, environment, PAYOUT_BUCKETS)) {
    const b = out.get(r.currency) ?? { available: 0n, inFlight: 0n };
    if (r.account === "payout_available") b.available += r.balance;
    else b.inFlight += r.balance;
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
