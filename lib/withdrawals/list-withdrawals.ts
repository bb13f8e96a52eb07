// GET /me/withdrawals and /me/withdrawals/{id}: scoped by merchant and environment.
import { db } from "@/lib/platform/db";
import { listEnvelope, pageRows, readPage } from "@/lib/platform/paging/pagination";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import { findOwnedWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import type { Environment, WithdrawalStatus } from "@/lib/generated/prisma/enums";

type Scope = { merchant: { id: string }; environment: Environment };

export async function listWithdrawals(scope: Scope, q: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: WithdrawalStatus }) {
  const base = { merchantId: scope.merchant.id, environment: scope.environment };
  const where = { ...base, ...(q.status ? { status: q.status } : {}) };
  const { rows, meta } = await pageRows(readPage(q), {
    find: ({ extra, orderBy, skip, take }) => db().withdrawal.findMany({ where: { ...where, ...extra }, orderBy, skip, take }),
    count: () => db().withdrawal.count({ where }),
    countKey: ["withdrawal", where],
    cursor: (id) => db().withdrawal.findFirst({ where: { ...base, id } }),
  });
  return listEnvelope(rows.map(presentWithdrawal), meta);
}

export async function getWithdrawal(scope: Scope, id: string) {
  return { withdrawal: presentWithdrawal(await findOwnedWithdrawal(scope, id)) };
}
