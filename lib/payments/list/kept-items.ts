// Presented payments kept per row version, so a page of unchanged payments costs one narrow
// statement and a join of kept text (docs/contributors/benchmarks.md, "Lists from kept items"). A row's version is
// PostgreSQL's `xmin`, the transaction that wrote the row as it is now: every UPDATE writes a new
// one. A kept item is never stale: a changed row has a new version, and the ids and versions are
// read fresh on every request. Each item is kept frozen with its JSON bytes and, once the request
// log asked, its redacted JSON.
import { sql } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { presentTransaction } from "@/lib/payments/present";
import { COLUMNS, fromRow } from "@/lib/payments/list/row";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

/**
 * A presented payment as this process last saw it: its row version, the frozen item, its JSON
 * as UTF-8 bytes, and (once the request log asked) its redacted JSON.
 */
export type KeptItem = { version: string; value: ReturnType<typeof presentTransaction>; json: Buffer; redacted?: string };
// At most KEPT_ITEMS (about 2 KB each with the object); the oldest kept go first. An entry is only
// ever read for an id the caller's own scoped statement returned, with the version it returned.
const KEPT_ITEMS = 50_000;
const kept = singleton("presented-payments", () => new Map<string, KeptItem>());

function keep(id: string, item: KeptItem): void {
  kept.delete(id);
  if (kept.size >= KEPT_ITEMS) kept.delete(kept.keys().next().value!);
  kept.set(id, item);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A page's row as its first statement reads it: the id and the row's version. */
export type PageRow = { id: string; v: string };
/** The columns of a page's first statement (PageRow). */
export const VERSIONED = "id, xmin::text AS v";

/**
 * The page's payments, presented, in the page's order: kept items whose version matches, the
 * rest read whole (scoped again) and kept. A row deleted between the two statements (a
 * production payment every provider refused) is left out, as a later read would.
 */
export async function presentedItems(auth: AuthContext, page: PageRow[]): Promise<KeptItem[]> {
  // The items are taken here, before the await: another request may keep an older version of an
  // id meanwhile (its statements ran earlier), and this page must not show it.
  const found = new Map<string, KeptItem>();
  const missing: string[] = [];
  for (const r of page) {
    const item = kept.get(r.id);
    if (item?.version === r.v) found.set(r.id, item);
    else missing.push(r.id);
  }
  if (missing.length > 0) {
    const rows = await sql(`SELECT ${COLUMNS}, xmin::text AS v FROM transactions WHERE id = ANY($1::text[]) AND merchant_id = $2 AND environment = $3::"Environment"`, [
      missing,
      auth.merchant.id,
      auth.environment,
    ]);
    for (const row of rows) {
      const value = deepFreeze(presentTransaction(fromRow(row)));
      const item = { version: row.v as string, value, json: Buffer.from(JSON.stringify(value)) };
      keep(row.id as string, item);
      found.set(row.id as string, item);
    }
  }
  const out: KeptItem[] = [];
  for (const r of page) {
    const item = found.get(r.id);
    if (item) out.push(item);
  }
  return out;
}
