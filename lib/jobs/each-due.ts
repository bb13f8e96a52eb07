// The shape shared by the per-payment jobs: find due ids, then for each one open a transaction,
// lock the row only if it is still due (SKIP LOCKED: another runner may have it), and act.
import { db, type Tx } from "@/lib/db";
import type { Transaction } from "@/lib/generated/prisma/client";

export async function forEachDueTransaction(ids: string[], stillDue: string, act: (tx: Tx, t: Transaction) => Promise<void>): Promise<number> {
  let done = 0;
  for (const id of ids) {
    const did = await db().$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM transactions WHERE id = $1 AND ${stillDue} FOR UPDATE SKIP LOCKED`, id);
      if (rows.length === 0) return false;
      await act(tx, (await tx.transaction.findUnique({ where: { id } }))!);
      return true;
    });
    if (did) done++;
  }
  return done;
}
