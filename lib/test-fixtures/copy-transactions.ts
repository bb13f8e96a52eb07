// Payments written straight into the database as copies of a template row (a real payment made
// through the API or the use case), for tests and benchmarks that need thousands to millions of
// them: one INSERT … SELECT per call, every column the template's unless `over` gives an SQL
// expression for it. Written through `transactions`' own triggers (the payment rollups count them
// as they would count payments made one by one).
import { sql } from "@/lib/platform/db";

let columns: Promise<string[]> | null = null;

/** The columns of `transactions`, in order (read once per process). */
function transactionColumns(): Promise<string[]> {
  columns ??= sql<{ c: string }>(`SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'transactions' AND table_schema = current_schema() ORDER BY ordinal_position`).then((rows) => rows.map((r) => r.c));
  return columns;
}

/**
 * Inserts copies of payment `templateId` ($1): one per row of `rowsFrom` (an SQL FROM item such as
 * `unnest($2::text[]) AS n(id)` or `generate_series($2::int, $3::int) AS g(i)`, whose parameters
 * are `values`, numbered from $2), with the columns named in `over` set to SQL expressions over it.
 */
export async function copyTransactions(templateId: string, over: Record<string, string>, rowsFrom: string, values: unknown[]): Promise<void> {
  const cols = await transactionColumns();
  await sql(
    `INSERT INTO transactions (${cols.map((c) => `"${c}"`).join(", ")})
     SELECT ${cols.map((c) => over[c] ?? `tpl."${c}"`).join(", ")} FROM transactions tpl, ${rowsFrom} WHERE tpl.id = $1`,
    [templateId, ...values],
  );
}
