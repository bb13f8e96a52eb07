// The shape shared by the per-payment jobs: find due ids, then for each one run a kernel
// operation whose load locks the row only if it is still due (SKIP LOCKED: another runner may
// have it); a row taken or no longer due changes nothing.
import type { Tx } from "@/lib/platform/db";
import { lockRow, transition, type Change } from "@/lib/ledger/transition";
import type { Transaction } from "@/lib/generated/prisma/client";

export async function forEachDueTransaction(
  ids: string[],
  due: { name: string; stillDue: string; status: (t: Transaction) => string; from: readonly string[] },
  apply: (tx: Tx, t: Transaction) => Promise<Change<true>>,
): Promise<number> {
  let done = 0;
  for (const id of ids) {
    const r = await transition({
      name: due.name,
      load: (tx) => lockRow(tx, "transactions", id, () => tx.transaction.findUnique({ where: { id } }), { skipLocked: true, where: due.stillDue }),
      ledger: (t) => ({ merchantId: t.merchantId, environment: t.environment, shopId: t.shopId }),
      status: due.status,
      from: due.from,
      apply,
    });
    if (r.changed) done++;
  }
  return done;
}
