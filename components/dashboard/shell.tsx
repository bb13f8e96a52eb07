import type { ReactNode } from "react";
import { FlaskConical, LogOut } from "lucide-react";
import { NavLinks } from "@/components/dashboard/nav-links";
import { EnvironmentSwitch } from "@/components/dashboard/env-switch";
import { LanguageSwitch } from "@/components/dashboard/language-switch";
import { dashboardMessages } from "@/components/dashboard/i18n/messages";
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { signOutAction } from "@/server/actions/session";
import { Badge } from "@/components/ui/badge";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

type ShellProps = { merchantName: string; email: string; role: DashboardRole; environment: "sandbox" | "production"; locale: DashboardLocale; children: ReactNode };

/** The frame of every signed-in page: sandbox marking, header, navigation, main landmark. */
export function DashboardShell({ merchantName, email, role, environment, locale, children }: ShellProps) {
  const sandbox = environment === "sandbox";
  const w = dashboardMessages(locale).shell;
  return (
    // A column as tall as the window at least: the row of navigation and content fills what the
    // header leaves, so the sidebar's background reaches the bottom even on a short page.
    // `lang` is the user's dashboard language: the document's <html> is the root layout's (English,
    // shared with the sign-in pages), so the signed-in frame names its own.
    <div lang={locale} className={`flex min-h-screen flex-col ${sandbox ? "border-t-4 border-amber-500" : ""}`} data-environment={environment}>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        {w.skipToContent}
      </a>
      {sandbox ? (
        <div data-testid="sandbox-banner" className="flex items-center justify-center gap-2 bg-amber-100 px-4 py-1.5 text-center text-sm font-medium text-amber-950">
          <FlaskConical aria-hidden className="size-4" />
          {w.sandboxBanner}
        </div>
      ) : null}
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex min-w-0 items-center gap-3">
            <details className="relative md:hidden">
              <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium">{w.menu}</summary>
              <nav aria-label={w.navMenu} className="absolute left-0 z-30 mt-2 w-64 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
                <NavLinks role={role} />
              </nav>
            </details>
            <span className="min-w-0 font-semibold text-slate-900 wrap-anywhere">{merchantName}</span>
            {sandbox ? <Badge tone="yellow">{w.sandbox}</Badge> : <Badge tone="green">{w.live}</Badge>}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <LanguageSwitch locale={locale} />
            <EnvironmentSwitch environment={environment} />
            <span className="hidden text-sm text-slate-600 sm:inline">
              {email} <span className="text-slate-500">· {w.role(role)}</span>
            </span>
            <form action={signOutAction}>
              <button type="submit" className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
                <LogOut aria-hidden className="size-4" /> {w.signOut}
              </button>
            </form>
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        {/* The column stretches with the page (its background and border reach the bottom of long
            pages); the navigation inside stays in view while the page scrolls. */}
        <div data-testid="sidebar" className="hidden w-52 shrink-0 border-r border-slate-200 bg-white md:block">
          <nav aria-label={w.navLabel} className="sticky top-16 max-h-[calc(100vh-4rem)] overflow-y-auto p-3">
            <NavLinks role={role} />
          </nav>
        </div>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
