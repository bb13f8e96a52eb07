// The total of an offset page of payments. Counting a million rows costs more than the page
// itself, and even summing a deep merchant's rollups costs more than a page: totals of 1,000 or
// more come from lib/platform/cache/large-counts.ts.
import { z } from "zod";
import { sql } from "@/lib/platform/db";
import { countOfList } from "@/lib/platform/cache/large-counts";
import { countPayments } from "@/lib/payments/rollups";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";
import type { Filter } from "@/lib/payments/list/filter";
import { merchantScope } from "@/lib/platform/scope";

function countTransactions(f: Filter): Promise<number> {
  return countOfList(`payments:scan:${JSON.stringify(f)}`, async () => {
    const r = await sql<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE ${f.clause}`, f.values, { planEachTime: f.search });
    return Number(r[0]!.n);
  });
}

/** The list's total: from the payment rollups when only scope and status filter it, else counted. */
export function totalOf(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>, f: Filter): Promise<number> {
  const onlyScope = !query.paymentMethodId && !query.country && !query.merchantOrderId && !query.method && !f.search;
  if (!onlyScope) return countTransactions(f);
  const scope = { ...merchantScope(auth), shopId: auth.shop?.id, status: query.status };
  return countOfList(`payments:rollups:${scope.merchantId}:${scope.environment}:${scope.shopId ?? ""}:${scope.status ?? ""}`, () => countPayments(scope));
}
