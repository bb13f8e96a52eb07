// GET /payments/{id}: one payment of the caller, scoped by merchant, environment and (for
// shop-bound credentials) shop; another's answers as unknown.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { presentTransaction } from "@/lib/payments/present";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { ownedScope } from "@/lib/platform/scope";

export async function getPayment(auth: AuthContext, id: string) {
  const row = await db().transaction.findFirst({ where: { id, ...ownedScope(auth) } });
  if (!row) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
  return presentTransaction(row);
}
