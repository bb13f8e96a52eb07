// The pages of a payments list, newest first, on the (merchant, environment, created_at) indexes
// so deep merchants stay fast: offset pages with a total, and keyset (cursor) pages without one.
// A page is read in two steps: the page's ids with each row's version, then the full rows of only
// those ids whose version this process has not presented yet (lib/payments/list/kept-items.ts).
import { z } from "zod";
import { sql } from "@/lib/platform/db";
import { sqlShared } from "@/lib/platform/shared-reads";
import { AppError } from "@/lib/platform/errors";
import { envelope, readPage, type Page } from "@/lib/platform/paging/pagination";
import { COLUMNS } from "@/lib/payments/list/row";
import { presentedItems, VERSIONED, type PageRow } from "@/lib/payments/list/kept-items";
import { filterOf, type Filter } from "@/lib/payments/list/filter";
import { totalOf } from "@/lib/payments/list/total";
import type { ListPage } from "@/lib/payments/list/answer";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";

type CursorPage = { limit: number; startingAfter?: string; endingBefore?: string };

export function offsetPageStatement(f: Filter, limit: number, offset: number, columns = COLUMNS) {
  const n = f.values.length;
  return { text: `SELECT ${columns} FROM transactions WHERE ${f.clause} ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...f.values, limit, offset] };
}

/** The statement a page runs (scripts/bench-search.ts and the tests explain it, so the plan shown is the one served). */
export function paymentsPageStatement(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  const page = readPage(query);
  const f = filterOf(auth, query);
  return page.kind === "cursor" ? cursorPageStatement(auth, f, page) : offsetPageStatement(f, page.limit, page.offset, VERSIONED);
}

/**
 * A page's ids and versions. A search is planned for its values on every call (see `sql`); any
 * other page shares its round trip with the same statement's concurrent runs (lib/platform/shared-reads.ts).
 */
function readPageRows(text: string, values: unknown[], search: boolean): Promise<PageRow[]> {
  return search ? sql<PageRow>(text, values, { planEachTime: true }) : sqlShared<PageRow>(text, values);
}

/** An offset page with the list's total. */
export async function offsetPage(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>, f: Filter, page: Page): Promise<ListPage> {
  const st = offsetPageStatement(f, page.limit, page.offset, VERSIONED);
  const [rows, total] = await Promise.all([readPageRows(st.text, st.values, f.search), totalOf(auth, query, f)]);
  const items = await presentedItems(auth, rows);
  const { pagination } = envelope(rows, total, page);
  return {
    items,
    meta: {
      pagination,
      hasMore: page.offset + rows.length < total,
      nextCursor: rows.at(-1)?.id ?? null,
      previousCursor: page.offset > 0 ? (rows[0]?.id ?? null) : null,
    },
  };
}

// The cursor's own row, scoped like the list ($1 id, $2 merchant, $3 environment, $4 shop or null).
const CURSOR_AT = (n: number) =>
  `SELECT created_at FROM transactions WHERE id = $${n + 1} AND merchant_id = $${n + 2} AND environment = $${n + 3}::"Environment" AND ($${n + 4}::text IS NULL OR shop_id = $${n + 4})`;

/** A cursor page's statement (one row past the page, to know whether there is more) and CURSOR_AT's values. */
function cursorPageStatement(auth: AuthContext, f: Filter, page: CursorPage) {
  const after = page.startingAfter !== undefined;
  const n = f.values.length;
  const cursor = [(page.startingAfter ?? page.endingBefore)!, auth.merchant.id, auth.environment, auth.shop?.id ?? null];
  return {
    text: `SELECT ${VERSIONED} FROM transactions WHERE ${f.clause} AND (created_at, id) ${after ? "<" : ">"} ((${CURSOR_AT(n)}), $${n + 1})
     ORDER BY created_at ${after ? "DESC" : "ASC"}, id ${after ? "DESC" : "ASC"} LIMIT $${n + 5}`,
    values: [...f.values, ...cursor, page.limit + 1],
    cursor,
  };
}

/**
 * Keyset paging from a payment of the list: (created_at, id) past the cursor's, on the same index
 * as page 1; no count. One statement (the cursor's time is a scalar subquery, run once, so the
 * comparison stays an index condition); only an empty page asks whether the cursor exists.
 */
export async function cursorPage(auth: AuthContext, f: Filter, page: CursorPage): Promise<ListPage> {
  const id = (page.startingAfter ?? page.endingBefore)!;
  const after = page.startingAfter !== undefined;
  const st = cursorPageStatement(auth, f, page);
  const rows = await readPageRows(st.text, st.values, f.search);
  if (rows.length === 0 && (await sql(CURSOR_AT(0), st.cursor)).length === 0) {
    throw new AppError("invalid_request", `No payment ${id} in this list to page from.`, { param: after ? "startingAfter" : "endingBefore" });
  }
  const more = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  if (!after) pageRows.reverse();
  const first = pageRows[0]?.id ?? null;
  const last = pageRows.at(-1)?.id ?? null;
  return {
    items: await presentedItems(auth, pageRows),
    meta: {
      hasMore: more,
      nextCursor: after ? (more ? last : null) : (last ?? id),
      previousCursor: after ? (first ?? id) : more ? first : null,
    },
  };
}
