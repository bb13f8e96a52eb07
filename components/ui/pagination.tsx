import Link from "next/link";
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { uiWords } from "@/components/ui/ui-words";

/** Previous / next links over an offset envelope; `href(offset)` builds each page's URL. */
export function Pagination({ pagination, href, label = "Pagination", locale }: { pagination?: { total: number; limit: number; offset: number }; href: (offset: number) => string; label?: string; /** The words' language (a server page has no context to read it from). */ locale?: DashboardLocale }) {
  if (!pagination) return null;
  const w = uiWords(locale);
  const { total, limit, offset } = pagination;
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(total, offset + limit);
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50";
  const disabledClass = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-400";
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <p>
        {w.range(from, to, total)}
      </p>
      <div className="flex gap-2">
        {offset > 0 ? (
          <Link className={linkClass} href={href(Math.max(0, offset - limit))} rel="prev">
            {w.previous}
          </Link>
        ) : (
          <span aria-disabled className={disabledClass}>
            {w.previous}
          </span>
        )}
        {offset + limit < total ? (
          <Link className={linkClass} href={href(offset + limit)} rel="next">
            {w.next}
          </Link>
        ) : (
          <span aria-disabled className={disabledClass}>
            {w.next}
          </span>
        )}
      </div>
    </nav>
  );
}

/** The same, for lists paged in client state (live lists inside a page). */
export function PagerButtons({ pagination, onChange, label = "Pagination" }: { pagination?: { total: number; limit: number; offset: number }; onChange: (offset: number) => void; label?: string }) {
  if (!pagination) return null;
  const { total, limit, offset } = pagination;
  if (total <= limit && offset === 0) return null;
  const cls = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:border-slate-200 disabled:text-slate-400";
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <p>
        {total === 0 ? 0 : offset + 1}–{Math.min(total, offset + limit)} of {total}
      </p>
      <div className="flex gap-2">
        <button type="button" className={cls} disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
          Newer
        </button>
        <button type="button" className={cls} disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
          Older
        </button>
      </div>
    </nav>
  );
}
