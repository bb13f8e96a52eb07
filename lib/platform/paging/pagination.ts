// The offset envelope of section 8: `{data, pagination:{total, limit, offset, pages}}`.
// Out-of-range or unreadable `limit`/`offset` are clamped silently, never rejected.
import { z } from "zod";
import { AppError } from "@/lib/platform/errors";
import { countOfList } from "@/lib/platform/cache/large-counts";

export type Page = { limit: number; offset: number };

export function clampPage(raw: { limit?: unknown; offset?: unknown }, opts: { max?: number; def?: number } = {}): Page {
  const max = opts.max ?? 100;
  const def = opts.def ?? 50;
  const num = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : NaN);
  const l = num(raw.limit);
  const o = num(raw.offset);
  const limit = Number.isFinite(l) ? Math.min(max, Math.max(1, Math.trunc(l))) : def;
  const offset = Number.isFinite(o) ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.trunc(o))) : 0;
  return { limit, offset };
}

/** Query schema fragment: accepts anything for limit/offset and clamps it. */
export function pageQuery(opts: { max?: number; def?: number } = {}) {
  return {
    limit: z.unknown().optional().describe(`Page size, 1-${opts.max ?? 100} (default ${opts.def ?? 50}); clamped silently`),
    offset: z.unknown().optional().describe("Rows to skip (default 0); clamped silently"),
  };
}

export function paginationSchema() {
  return z.object({ total: z.number().int().describe("Items in the whole filtered list: exact below 1,000; a larger total may be up to a minute old"), limit: z.number().int(), offset: z.number().int(), pages: z.number().int() }).meta({ id: "Pagination" });
}

export function envelope<T>(data: T[], total: number, page: Page) {
  return { data, pagination: { total, limit: page.limit, offset: page.offset, pages: Math.ceil(total / page.limit) } };
}

// ---------------------------------------------------------------------------------------------
// Cursor pagination (Stripe's style) beside the offset envelope: `startingAfter=<id>` gives the
// page after that item, `endingBefore=<id>` the page before it, newest first either way. The
// cursor is an item of the list; the page is read by (time, id) from it on the list's own index
// (keyset), so rows inserted meanwhile never shift or repeat items, and a deep page costs what
// the first does. Every list answers `hasMore`, `nextCursor` (pass it as `startingAfter`) and
// `previousCursor` (as `endingBefore`); the offset `pagination` block comes only with offsets.

export type CursorRequest = { limit: number; startingAfter?: string; endingBefore?: string };
export type PageRequest = ({ kind: "offset" } & Page) | ({ kind: "cursor" } & CursorRequest);
export type PageMeta = { hasMore: boolean; nextCursor: string | null; previousCursor: string | null; pagination?: ReturnType<typeof envelope>["pagination"] };

const cursorText = z.string().trim().min(1).max(64);

/** Query schema fragment of every list: offset (clamped) or cursor parameters. */
export function listQuery(opts: { max?: number; def?: number } = {}) {
  return {
    ...pageQuery(opts),
    startingAfter: cursorText.optional().describe("Cursor: the id of an item; answers the items after it (older). Not with offset or endingBefore"),
    endingBefore: cursorText.optional().describe("Cursor: the id of an item; answers the items before it (newer). Not with offset or startingAfter"),
  };
}

/** The page asked for: cursor parameters win; both cursors, or a cursor with an offset, is 400. */
export function readPage(raw: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string }, opts: { max?: number; def?: number } = {}): PageRequest {
  const page = clampPage(raw, opts);
  if (raw.startingAfter === undefined && raw.endingBefore === undefined) return { kind: "offset", ...page };
  if (raw.startingAfter !== undefined && raw.endingBefore !== undefined) throw new AppError("invalid_request", "Send either `startingAfter` or `endingBefore`, not both.", { param: "endingBefore" });
  if (page.offset > 0) throw new AppError("invalid_request", "`offset` cannot be combined with a cursor; page with `startingAfter`/`endingBefore` alone.", { param: "offset" });
  return { kind: "cursor", limit: page.limit, startingAfter: raw.startingAfter, endingBefore: raw.endingBefore };
}

/** The fields every list answers besides `data` (zod, for the endpoint's response). */
export function listMetaShape() {
  return {
    hasMore: z.boolean().describe("More items after this page (or before it, when paging with endingBefore)"),
    nextCursor: z.string().nullable().describe("Pass as startingAfter for the next (older) page"),
    previousCursor: z.string().nullable().describe("Pass as endingBefore for the previous (newer) page"),
    pagination: paginationSchema().optional().describe("Offset paging only"),
  };
}

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), ...listMetaShape() });
}

type Keyset = Record<string, unknown>;
type Row = { id: string } & Record<string, unknown>;

/**
 * One page of a Prisma-read list, in either mode. `find` reads rows with the keyset condition
 * AND-ed to the list's own `where` (`{ ...where, ...extra }`), `count` the total (offset mode
 * only), `cursor` finds a cursor item within the list's scope (another merchant's id is 400).
 */
function totalOf(opts: { count: () => Promise<number>; countKey?: [string, unknown] }): Promise<number> {
  return opts.countKey ? countOfList(JSON.stringify(opts.countKey), opts.count) : opts.count();
}

export async function pageRows<T extends Row>(
  req: PageRequest,
  opts: {
    find: (a: { extra: Keyset; orderBy: Record<string, "asc" | "desc">[]; skip?: number; take: number }) => Promise<T[]>;
    count: () => Promise<number>;
    /**
     * What the total counts: the table and the whole filter with its scope (JSON). With it, a
     * total of 1,000 or more may be up to a minute old (lib/platform/cache/large-counts.ts); without, exact.
     */
    countKey?: [table: string, where: unknown];
    cursor: (id: string) => Promise<T | null>;
    /** The time column the list is ordered by (default createdAt). */
    field?: string;
  },
): Promise<{ rows: T[]; meta: PageMeta }> {
  const field = opts.field ?? "createdAt";
  const desc = [{ [field]: "desc" as const }, { id: "desc" as const }];
  if (req.kind === "offset") {
    const [rows, total] = await Promise.all([opts.find({ extra: {}, orderBy: desc, skip: req.offset, take: req.limit }), totalOf(opts)]);
    const { pagination } = envelope(rows, total, req);
    return { rows, meta: { pagination, hasMore: req.offset + rows.length < total, nextCursor: rows.at(-1)?.id ?? null, previousCursor: req.offset > 0 ? (rows[0]?.id ?? null) : null } };
  }
  const id = (req.startingAfter ?? req.endingBefore)!;
  const c = await opts.cursor(id);
  if (!c) throw new AppError("invalid_request", `No item ${id} in this list to page from.`, { param: req.startingAfter !== undefined ? "startingAfter" : "endingBefore" });
  const at = c[field] as Date;
  const after = req.startingAfter !== undefined;
  const op = after ? "lt" : "gt";
  const extra = { AND: [{ OR: [{ [field]: { [op]: at } }, { [field]: at, id: { [op]: c.id } }] }] };
  const found = await opts.find({ extra, orderBy: after ? desc : [{ [field]: "asc" }, { id: "asc" }], take: req.limit + 1 });
  const more = found.length > req.limit;
  const rows = found.slice(0, req.limit);
  if (!after) rows.reverse();
  // Forward: older items remain when `more`; newer ones exist (the cursor). Backward: the reverse.
  return { rows, meta: { hasMore: more, nextCursor: after ? (more ? (rows.at(-1)?.id ?? null) : null) : (rows.at(-1)?.id ?? id), previousCursor: after ? (rows[0]?.id ?? id) : more ? (rows[0]?.id ?? null) : null } };
}

export function listEnvelope<T>(data: T[], meta: PageMeta) {
  return { data, ...meta };
}
