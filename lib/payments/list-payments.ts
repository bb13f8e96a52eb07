// GET /payments and GET /payments/{id}: always scoped by merchant, environment and (for
// shop-bound credentials) shop. Newest first; served by the (merchant, environment, created_at)
// indexes so deep merchants stay fast, and `q` by the search keys' indexes (lib/payments/search.ts).
// The list runs on the lean `sql` path (lib/platform/db.ts): mapping fifty wide rows through Prisma's
// runtime costs more CPU than the rest of the request.
//
// A page is read in two steps: the page's ids with each row's version (PostgreSQL's `xmin`, the
// transaction that wrote the row as it is now: every UPDATE writes a new one), then the full rows
// of only those ids whose version this process has not presented yet. Each payment's presented
// item and its JSON text are kept per (id, version), so a page of unchanged payments costs one
// narrow statement and a join of kept text: parsing fifty wide rows, presenting them and
// serialising 40 KB were most of a list request's CPU (docs/contributors/benchmarks.md, "Lists from kept items"). A kept
// item is never stale: a changed row has a new version, and the ids and versions are read fresh
// on every request.
import { z } from "zod";
import { db, sql } from "@/lib/platform/db";
import { sqlShared } from "@/lib/platform/shared-reads";
import { singleton } from "@/lib/platform/singleton";
import { countOfList } from "@/lib/platform/cache/large-counts";
import { AppError } from "@/lib/platform/errors";
import { envelope, listEnvelope, readPage, type PageMeta } from "@/lib/platform/paging/pagination";
import { withJson } from "@/lib/platform/contract/json-text";
import { LIST_ITEMS_LOGGED, moreItems, redactedJson } from "@/lib/platform/contract/redact-answer";
import { toIso3 } from "@/lib/rails/rails";
import { presentTransaction, type PresentableTransaction } from "@/lib/payments/present";
import { planSearch, searchCondition } from "@/lib/payments/search";
import { countPayments } from "@/lib/payments/rollups";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { listPaymentsQuery } from "@/lib/payments/schema";

/** `search`: the filter has a `q` condition, whose statements are planned per call (see sql()). */
type Filter = { clause: string; values: unknown[]; search: boolean };

type Filters = Pick<z.infer<typeof listPaymentsQuery>, "status" | "paymentMethodId" | "merchantOrderId" | "method" | "q">;

function filterFor(auth: AuthContext, query: Filters, country: string | undefined): Filter {
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

// Counting a million rows costs more than the page itself, and even summing a deep merchant's
// rollups costs more than a page: totals of 1,000 or more come from lib/platform/cache/large-counts.ts.
function countTransactions(f: Filter): Promise<number> {
  return countOfList(`payments:scan:${JSON.stringify(f)}`, async () => {
    const r = await sql<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE ${f.clause}`, f.values, { planEachTime: f.search });
    return Number(r[0]!.n);
  });
}

// Named columns, not *: a prepared statement over * breaks when a migration adds a column.
// Only what presenting a payment reads: a list item shows no instructions (a voucher's or a
// PIX code's, parsed from jsonb for nothing) and no buyer phone or address.
const COLUMNS = `id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, input_currency, input_amount,
  payment_method_id, method, rail_name, country, fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay,
  settlement_status, refunded_local, provider, attempts, payment_form_url, hosted_checkout, return_url, merchant_order_id,
  qr_order_id, tag1, tag2, tag3, user_name, user_email, expires_at, completed_at, created_at, decline_code, routing_version,
  late_completion`;

const big = (v: string | null) => (v === null ? null : BigInt(v));

/**
 * A raw `transactions` row of COLUMNS (pg: int8 as text, jsonb parsed) -> the shape presenting
 * needs; what a list item never shows is not read (null here).
 */
function fromRow(r: Record<string, any>): PresentableTransaction {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    shopId: r.shop_id,
    environment: r.environment,
    status: r.status,
    amountUsd: BigInt(r.amount_usd),
    amountLocal: BigInt(r.amount_local),
    currencyLocal: r.currency_local,
    inputCurrency: r.input_currency,
    inputAmount: big(r.input_amount),
    paymentMethodId: r.payment_method_id,
    method: r.method,
    railName: r.rail_name,
    country: r.country,
    feePlatform: BigInt(r.fee_platform),
    feeProvider: BigInt(r.fee_provider),
    feeNetwork: BigInt(r.fee_network),
    reserveAmount: BigInt(r.reserve_amount),
    reserveReleaseAt: null,
    reserveReleasedAt: null,
    settlementDelay: r.settlement_delay,
    settlementStatus: r.settlement_status,
    settleAt: null,
    refundedLocal: BigInt(r.refunded_local),
    pendingDebited: 0n,
    provider: r.provider,
    providerRef: null,
    attempts: r.attempts,
    declineCode: r.decline_code,
    routingVersion: r.routing_version,
    lateCompletion: r.late_completion,
    paymentFormUrl: r.payment_form_url,
    instructions: null,
    hostedCheckout: r.hosted_checkout,
    returnUrl: r.return_url,
    merchantOrderId: r.merchant_order_id,
    qrOrderId: r.qr_order_id,
    tag1: r.tag1,
    tag2: r.tag2,
    tag3: r.tag3,
    userName: r.user_name,
    userEmail: r.user_email,
    userPhone: null,
    userIp: null,
    expiresAt: r.expires_at,
    completedAt: r.completed_at,
    createdAt: r.created_at,
  };
}

/**
 * A presented payment as this process last saw it: its row version, the frozen item, its JSON
 * as UTF-8 bytes, and (once the request log asked) its redacted JSON.
 */
type KeptItem = { version: string; value: ReturnType<typeof presentTransaction>; json: Buffer; redacted?: string };
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
type PageRow = { id: string; v: string };
const VERSIONED = "id, xmin::text AS v";

/**
 * The page's payments, presented, in the page's order: kept items whose version matches, the
 * rest read whole (scoped again) and kept. A row deleted between the two statements (a
 * production payment every provider refused) is left out, as a later read would.
 */
async function presentedItems(auth: AuthContext, page: PageRow[]): Promise<KeptItem[]> {
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

const OPEN = Buffer.from(`{"data":[`);
const COMMA = Buffer.from(",");

/** A page as read: its kept items and the list's other fields. */
type ListPage = { items: KeptItem[]; meta: PageMeta };

const valueOf = ({ items, meta }: ListPage) =>
  listEnvelope(
    items.map((i) => i.value),
    meta,
  );

/**
 * The list's answer with its JSON joined from the items' kept bytes, and the request log's
 * redacted text from the items' kept redaction (only the first LIST_ITEMS_LOGGED are logged; a list
 * item sits two levels down the answer): what serialising and redacting the object would give.
 */
function answerOf({ items, meta }: ListPage) {
  const rest = JSON.stringify(meta).slice(1);
  const parts: Buffer[] = [OPEN];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(items[i]!.json);
  }
  parts.push(Buffer.from(rest === "}" ? "]}" : `],${rest}`));
  const logged = items.slice(0, LIST_ITEMS_LOGGED).map((i) => (i.redacted ??= redactedJson(i.value, 2)));
  if (items.length > LIST_ITEMS_LOGGED) logged.push(JSON.stringify(moreItems(items.length - LIST_ITEMS_LOGGED)));
  const restRedacted = redactedJson(meta, 0).slice(1);
  const redacted = `{"data":[${logged.join(",")}]${restRedacted === "}" ? "}" : `,${restRedacted}`}`;
  return { json: Buffer.concat(parts), redacted };
}

function filterOf(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>): Filter {
  let country: string | undefined;
  if (query.country) {
    country = toIso3(query.country) ?? undefined;
    if (!country) throw new AppError("invalid_request", "`country` must be an ISO-2 or ISO-3 country code.", { param: "country" });
  }
  return filterFor(auth, query, country);
}

/** The list's total: from the payment rollups when only scope and status filter it, else counted. */
function totalOf(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>, f: Filter): Promise<number> {
  const onlyScope = !query.paymentMethodId && !query.country && !query.merchantOrderId && !query.method && !f.search;
  if (!onlyScope) return countTransactions(f);
  const scope = { merchantId: auth.merchant.id, environment: auth.environment, shopId: auth.shop?.id, status: query.status };
  return countOfList(`payments:rollups:${scope.merchantId}:${scope.environment}:${scope.shopId ?? ""}:${scope.status ?? ""}`, () => countPayments(scope));
}

function offsetPageStatement(f: Filter, limit: number, offset: number, columns = COLUMNS) {
  const n = f.values.length;
  return { text: `SELECT ${columns} FROM transactions WHERE ${f.clause} ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...f.values, limit, offset] };
}

/** The statement a page runs (scripts/bench-search.ts and the tests explain it, so the plan shown is the one served). */
export function paymentsPageStatement(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  const page = readPage(query);
  const f = filterOf(auth, query);
  return page.kind === "cursor" ? cursorPageStatement(auth, f, page) : offsetPageStatement(f, page.limit, page.offset, VERSIONED);
}

/** GET /payments' answer, with its JSON attached (the API writes it as it is; see answerOf). */
export async function listPaymentsAnswer(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  const page = await readList(auth, query);
  const { json, redacted } = answerOf(page);
  return withJson(valueOf(page), json, redacted);
}

/** The list as an object (the dashboard's payments page: no JSON joined); the items are frozen, shared with later reads. */
export async function listPayments(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>) {
  return valueOf(await readList(auth, query));
}

async function readList(auth: AuthContext, query: z.infer<typeof listPaymentsQuery>): Promise<ListPage> {
  const page = readPage(query);
  const f = filterOf(auth, query);
  if (page.kind === "cursor") return cursorPage(auth, f, page);
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

/**
 * A page's ids and versions. A search is planned for its values on every call (see `sql`); any
 * other page shares its round trip with the same statement's concurrent runs (lib/platform/shared-reads.ts).
 */
function readPageRows(text: string, values: unknown[], search: boolean): Promise<PageRow[]> {
  return search ? sql<PageRow>(text, values, { planEachTime: true }) : sqlShared<PageRow>(text, values);
}

/**
 * The newest `limit` payments of the caller's list, without a total: the dashboard's overview
 * shows them and no count, and even the rollups' total reads every hour of a merchant's history.
 */
export async function recentPayments(auth: AuthContext, limit: number) {
  const st = offsetPageStatement(filterFor(auth, {}, undefined), limit, 0);
  const rows = await sql(st.text, st.values, { genericPlan: true });
  return rows.map((r) => presentTransaction(fromRow(r)));
}

// The cursor's own row, scoped like the list ($1 id, $2 merchant, $3 environment, $4 shop or null).
const CURSOR_AT = (n: number) =>
  `SELECT created_at FROM transactions WHERE id = $${n + 1} AND merchant_id = $${n + 2} AND environment = $${n + 3}::"Environment" AND ($${n + 4}::text IS NULL OR shop_id = $${n + 4})`;

/** A cursor page's statement (one row past the page, to know whether there is more) and CURSOR_AT's values. */
function cursorPageStatement(auth: AuthContext, f: Filter, page: { limit: number; startingAfter?: string; endingBefore?: string }) {
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
async function cursorPage(auth: AuthContext, f: Filter, page: { limit: number; startingAfter?: string; endingBefore?: string }): Promise<ListPage> {
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

export async function getPayment(auth: AuthContext, id: string) {
  const row = await db().transaction.findFirst({ where: { id, merchantId: auth.merchant.id, environment: auth.environment, ...(auth.shop ? { shopId: auth.shop.id } : {}) } });
  if (!row) throw new AppError("transaction_not_found", `No transaction ${id}.`, { param: "id" });
  return presentTransaction(row);
}
