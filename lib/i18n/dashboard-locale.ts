// The dashboard's language, per signed-in user: a cookie (lp_dashboard_locale) the header's
// language switcher sets, else the browser's Accept-Language, else English. Only the values
// below are ever read or written, so the cookie cannot carry anything else into a page.
// Pure (no next/headers): the layout reads the cookie and the header and passes them in.
import { parseAcceptLanguage } from "@/lib/i18n/locale";

export const DASHBOARD_LOCALES = ["en", "es", "pt-BR"] as const;
export type DashboardLocale = (typeof DASHBOARD_LOCALES)[number];
export const DASHBOARD_LOCALE_COOKIE = "lp_dashboard_locale";

export const isDashboardLocale = (v: unknown): v is DashboardLocale => typeof v === "string" && (DASHBOARD_LOCALES as readonly string[]).includes(v);

/** The cookie's value when it is one of ours; else the first Accept-Language entry we speak. */
export function dashboardLocale(cookie: string | null | undefined, acceptLanguage: string | null | undefined): DashboardLocale {
  if (isDashboardLocale(cookie)) return cookie;
  for (const tag of parseAcceptLanguage(acceptLanguage ?? "")) {
    const lang = tag.toLowerCase().split("-")[0];
    if (lang === "pt") return "pt-BR";
    if (lang === "es") return "es";
    if (lang === "en") return "en";
  }
  return "en";
}
