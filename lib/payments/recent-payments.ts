// The newest payments of the caller's list for the dashboard's overview, which shows them and no
// count: even the rollups' total reads every hour of a merchant's history.
import { sql } from "@/lib/platform/db";
import { presentTransaction } from "@/lib/payments/present";
import { filterFor } from "@/lib/payments/list/filter";
import { offsetPageStatement } from "@/lib/payments/list/pages";
import { fromRow } from "@/lib/payments/list/row";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

/** The newest `limit` payments of the caller's list, without a total. */
export async function recentPayments(auth: AuthContext, limit: number) {
  const st = offsetPageStatement(filterFor(auth, {}, undefined), limit, 0);
  const rows = await sql(st.text, st.values, { genericPlan: true });
  return rows.map((r) => presentTransaction(fromRow(r)));
}
