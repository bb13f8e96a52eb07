// The offset envelope of section 8: `{data, pagination:{total, limit, offset, pages}}`.
// Out-of-range or unreadable `limit`/`offset` are clamped silently, never rejected.
import { z } from "zod";

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
  return z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), pages: z.number().int() }).meta({ id: "Pagination" });
}

export function envelope<T>(data: T[], total: number, page: Page) {
  return { data, pagination: { total, limit: page.limit, offset: page.offset, pages: Math.ceil(total / page.limit) } };
}
