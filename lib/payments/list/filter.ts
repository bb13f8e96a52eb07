// The WHERE clause of a payments list (GET /payments, the dashboard's lists): always scoped by
// merchant, environment and (for shop-bound credentials) shop, then the query's filters, and `q`
// by the search keys' indexes (lib/payments/search.ts). Parameterised: the values go beside it.
import { z } from "zod";
import { AppError } from "@/lib/platform/errors";
import { toIso3 } from "@/lib/rails/rails";
import { planSearch, searchCondition } from "@/lib/payments/search";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";

/** `search`: the filter has a `q` condition, whose statements are planned per call (see sql()). */
export type Filter = { clause: string; values: unknown[]; search: boolean };

type Filters = Pick<z.infer<typeof listPaymentsQuery>, "status" | "paymentMethodId" | "merchantOrderId" | "method" | "q">;

export function filterFor(auth: AuthContext, query: Filters, country: string | undefined): Filter {
  const parts: string[] = [];
  const values: unknown[] = [];
  const add = (sqlPart: string, value: unknown) => {
    values.push(value);
    parts.push(sqlPart.replace("?", `$${values.length}`));
  };
  add("merchant_id = ?", auth.merchant.id);
  add(`environment = ?::"Environment"`, auth.environment);
  if (auth.shop) add("shop_id = ?", auth.shop.id);
  if (query.status) add(`status = ?::"TransactionStatus"`, query.status);
  if (query.paymentMethodId) add("payment_method_id = ?", query.paymentMethodId);
  if (country) add("country = ?", country);
  if (query.merchantOrderId) add("merchant_order_id = ?", query.merchantOrderId);
  if (query.method) add("method = ?", query.method);
  const plan = planSearch(query.q);
  if (plan) {
    const c = searchCondition(plan, values.length + 1);
    values.push(...c.values);
    parts.push(c.clause);
  }
  return { clause: parts.join(" AND "), values, search: plan !== null };
}

/** The list query's filter; `country` may be ISO-2 or ISO-3. */
export function filterOf(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>): Filter {
  let country: string | undefined;
  if (query.country) {
    country = toIso3(query.country) ?? undefined;
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  return filterFor(auth, query, country);
}
