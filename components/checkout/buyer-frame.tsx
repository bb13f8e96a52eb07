// The frame of every buyer page: who is being paid, a test-mode banner in the sandbox, the
// language switch and the footer. Server-rendered; no script. Printed, only what the page
// marks for keeping remains (the language switch and buttons carry `print:hidden`).
import type { Messages } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/i18n/locale";

const LANGUAGES: Array<{ locale: Locale; label: string }> = [
  { locale: "es", label: "Español" },
  { locale: "pt-BR", label: "Português" },
  { locale: "en", label: "English" },
];

export function BuyerFrame({ t, locale, path, merchantName, sandbox, children }: { t: Messages; locale: Locale; path: string; merchantName?: string; sandbox?: boolean; children: React.ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      {sandbox ? (
        <p role="note" className="bg-amber-300 px-4 py-2 text-center text-sm font-semibold text-amber-950">
          {t.testMode}
        </p>
      ) : null}
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between gap-3 px-4 py-3">
          <p className="min-w-0 truncate text-base font-semibold text-slate-900">{merchantName || t.secureCheckout}</p>
          {/* Without a merchant's name the left already says "secure checkout": never twice. */}
          {merchantName ? (
            <p className="flex shrink-0 items-center gap-1 text-sm text-slate-600">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
                <path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Zm-3 8V6a3 3 0 1 1 6 0v3H7Z" />
              </svg>
              {t.secureCheckout}
            </p>
          ) : null}
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-xl flex-1 px-4 py-6">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl flex-wrap items-center justify-between gap-2 px-4 py-4 text-sm text-slate-600">
          <p>{t.poweredBy}</p>
          <nav aria-label={t.language} className="print:hidden">
            <ul className="flex gap-3">
              {LANGUAGES.map((l) => (
                <li key={l.locale}>
                  <a href={`${path}?locale=${l.locale}`} hrefLang={l.locale} lang={l.locale} aria-current={l.locale === locale ? "true" : undefined} className={`underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${l.locale === locale ? "font-semibold text-slate-900" : "text-blue-800"}`}>
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}

export function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby="notice-title" className="rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 id="notice-title" className="text-xl font-semibold text-slate-900">
        {title}
      </h1>
      <div className="mt-3 space-y-4 text-slate-700">{children}</div>
    </section>
  );
}

export const buttonClass =
  "inline-flex min-h-11 w-full items-center justify-center rounded-lg bg-blue-700 px-5 py-3 text-base font-semibold text-white hover:bg-blue-800 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-400";
export const secondaryButtonClass =
  "inline-flex min-h-11 w-full items-center justify-center rounded-lg border border-slate-300 bg-white px-5 py-3 text-base font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-400";
