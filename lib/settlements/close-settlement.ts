// Closing a settlement batch: in ONE transaction through the money kernel, under the merchant's
// ledger lock, the whole available pay-in USD (at least 50 USD; in the sandbox a run may waive
// that, so a tester sees a small batch close, but never the fee) leaves `available` for
// `in_transit` (recipe settlementClosed: net + the tier's withdrawal fee), the payments settled
// into available since the last batch are claimed by this one (their per-rail totals go on the
// receipt, with every movement of `available` since the last batch: lib/settlements/statement.ts),
// the batch row is written and `settlement.closed` is emitted. A batch per period start
// is unique, so two runs at once (two instances, a double click) close one.
// Lock order (lib/ledger/transition.ts): the payments it sweeps, in id order, before the ledger.
// A refund or a chargeback holds its payment's row while it waits for the ledger; a close that
// held the ledger while it waited for that row deadlocked with it (40P01, a 500 to one of them).
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { bucketTotals } from "@/lib/ledger/post";
import { settlementClosed } from "@/lib/ledger/recipes";
import { kernelTransaction, transitionIn, wakeAfterCommit } from "@/lib/ledger/transition";
import { findDestination } from "@/lib/crypto-assets/settlement-destination";
import { WITHDRAWAL_FEE_USD_MINOR } from "@/lib/pricing/fees";
import { presentSettlement } from "@/lib/settlements/present";
import { availableStatement } from "@/lib/settlements/statement";
import type { Environment, MerchantTier } from "@/lib/generated/prisma/enums";

export const SETTLEMENT_MINIMUM_USD_MINOR = 5_000n;

type Scope = { merchant: { id: string; tier: MerchantTier }; environment: Environment };
export type CloseOutcome = { settlement: ReturnType<typeof presentSettlement> | null; skipped: "below_minimum" | "no_destination" | null };

type Swept = { payment_method_id: string; rail_name: string; currency_local: string; n: string; amount_local: string; amount_usd: string; fees_usd: string; financing_usd: string; reserve_usd: string; net_usd: string };

/** `waiveMinimum`: close whatever is above the fee (the sandbox's run now only: its permission is sandbox-only). */
export async function closeSettlement(scope: Scope, opts: { periodTo: Date; waiveMinimum?: boolean }): Promise<CloseOutcome> {
  const destination = await findDestination(scope);
  if (!destination) return { settlement: null, skipped: "no_destination" };
  const merchantId = scope.merchant.id;
  const { environment } = scope;
  const last = await db().settlement.findFirst({ where: { merchantId, environment }, orderBy: { periodTo: "desc" }, select: { periodTo: true } });
  const merchant = await db().merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { createdAt: true } });
  const periodFrom = last?.periodTo ?? merchant.createdAt;
  if (periodFrom >= opts.periodTo) return { settlement: null, skipped: "below_minimum" };
  const fee = WITHDRAWAL_FEE_USD_MINOR[scope.merchant.tier];
  try {
    const out = await kernelTransaction("closeSettlement", async (tx) => {
      // The payments this batch will sweep, before the ledger (the settlement index, led by
      // settlement_status, finds them).
      const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM transactions
        WHERE settlement_status = 'settled' AND merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND settlement_batch_id IS NULL
        ORDER BY id FOR UPDATE`;
      const r = await transitionIn(tx, {
        name: "closeSettlement",
        load: async () => ({ merchantId, environment }),
        ledger: (s) => ({ ...s, shopId: null }),
        apply: async () => {
          const { available } = await bucketTotals(tx, merchantId, environment);
          if ((!opts.waiveMinimum && available < SETTLEMENT_MINIMUM_USD_MINOR) || available <= fee) return null;
          // Under the ledger lock no payment becomes settled or returned by a failed batch (both
          // post to this ledger), so the set is final now; one that did between the row locks and
          // the ledger lock is not locked yet. Taken without waiting: a kernel move may hold it
          // while it waits for this ledger. If one is held, the attempt rolls back (55P03) and
          // kernelTransaction runs it again, the rows first.
          await tx.$queryRaw`
            SELECT id FROM transactions
            WHERE settlement_status = 'settled' AND merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND settlement_batch_id IS NULL
              AND NOT (id = ANY(${locked.map((l) => l.id)}::text[]))
            ORDER BY id FOR UPDATE NOWAIT`;
          const id = newId("settlement");
          const swept = await tx.$queryRaw<Swept[]>`
            WITH claimed AS (
              UPDATE transactions SET settlement_batch_id = ${id}
              WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND settlement_status = 'settled' AND settlement_batch_id IS NULL
              RETURNING payment_method_id, rail_name, currency_local, amount_local, amount_usd, fee_platform + fee_provider + fee_network AS fees, fee_financing, reserve_amount, amount_usd - fee_platform - fee_provider - fee_network - fee_financing - reserve_amount AS net)
            SELECT payment_method_id, rail_name, currency_local, count(*)::text AS n, sum(amount_local)::text AS amount_local, sum(amount_usd)::text AS amount_usd, sum(fees)::text AS fees_usd, sum(fee_financing)::text AS financing_usd, sum(reserve_amount)::text AS reserve_usd, sum(net)::text AS net_usd
            FROM claimed GROUP BY 1, 2, 3 ORDER BY 1, 3`;
          // Every movement of `available` since the previous batch: what the receipt reconciles.
          const statement = await availableStatement(tx, merchantId, environment, periodFrom);
          const row = await tx.settlement.create({
            data: {
              id,
              merchantId,
              environment,
              status: "closed",
              periodFrom,
              periodTo: opts.periodTo,
              grossUsd: available,
              feeUsd: fee,
              netUsd: available - fee,
              transactionCount: swept.reduce((n, s) => n + Number(s.n), 0),
              breakdown: {
                payments: swept.map((s) => ({ paymentMethodId: s.payment_method_id, railName: s.rail_name, currency: s.currency_local, count: Number(s.n), amountLocal: s.amount_local, amountUsd: s.amount_usd, feesUsd: s.fees_usd, ...(s.financing_usd !== "0" ? { financingUsd: s.financing_usd } : {}), reserveUsd: s.reserve_usd, netUsd: s.net_usd })),
                ...statement,
              },
              asset: destination.asset,
              network: destination.network,
              address: destination.address,
            },
          });
          const presented = presentSettlement(row);
          return { result: presented, postings: [settlementClosed({ amountUsd: available - fee, feeUsd: fee })], events: [{ type: "settlement.closed", object: presented }] };
        },
      });
      return r;
    });
    if (!out.changed) return { settlement: null, skipped: "below_minimum" };
    wakeAfterCommit(out.wake);
    return { settlement: out.result!, skipped: null };
  } catch (err) {
    // Another run closed this period first: nothing more to close.
    if ((err as { code?: string }).code === "P2002") return { settlement: null, skipped: "below_minimum" };
    throw err;
  }
}
