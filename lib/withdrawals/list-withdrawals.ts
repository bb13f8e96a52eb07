// GET /me/withdrawals and /me/withdrawals/{id}: scoped by merchant and environment.
import type { Withdrawal } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { presentWithdrawal } from "@/lib/withdrawals/present";
import { findOwnedWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import type { WithdrawalStatus } from "@/lib/generated/prisma/enums";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";


export async function listWithdrawals(scope: Owner, q: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: WithdrawalStatus }) {
  const base = merchantScope(scope);
  const where = { ...base, ...(q.status ? { status: q.status } : {}) };
  const { rows, meta } = await pageModel<Withdrawal>(readPage(q), { model: db().withdrawal, name: "withdrawal", where, scope: base });
  return listEnvelope(rows.map(presentWithdrawal), meta);
}

export async function getWithdrawal(scope: Owner, id: string) {
  return { withdrawal: presentWithdrawal(await findOwnedWithdrawal(scope, id)) };
}
