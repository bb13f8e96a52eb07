"use client";
// The header's language picker: each language named in itself ("Português (Brasil)"), the
// choice kept in a cookie by a server action, then the page is drawn again in it.
import { useId, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Languages } from "lucide-react";
import { setDashboardLocaleAction } from "@/server/actions/locale";
import { DASHBOARD_LOCALES, isDashboardLocale, type DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { dashboardMessages } from "@/components/dashboard/i18n/messages";

export function LanguageSwitch({ locale }: { locale: DashboardLocale }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const id = useId();
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-700">
      <Languages aria-hidden className="size-4" />
      <label htmlFor={id} className="sr-only">
        {dashboardMessages(locale).shell.language}
      </label>
      <select
        id={id}
        data-testid="language-switch"
        value={locale}
        disabled={pending}
        onChange={(e) => {
          const next = e.target.value;
          if (!isDashboardLocale(next)) return;
          start(async () => {
            const r = await setDashboardLocaleAction(next);
            if (r.ok) router.refresh();
          });
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60"
      >
        {DASHBOARD_LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {dashboardMessages(l).languageName}
          </option>
        ))}
      </select>
    </span>
  );
}
