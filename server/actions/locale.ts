"use server";
// The dashboard's language (a cookie per browser of the signed-in user, set from the header's
// switcher). Only the languages the dashboard speaks are accepted; SameSite=Lax like the
// environment cookie, and like every server action it carries Next's CSRF defence.
import { cookies } from "next/headers";
import { config } from "@/lib/platform/config";
import { DASHBOARD_LOCALES, DASHBOARD_LOCALE_COOKIE } from "@/lib/i18n/dashboard-locale";
import { dashboardAction, oneOf } from "@/server/dashboard-action";

// A year: a language is a lasting preference, not a session's state.
const LOCALE_MAX_AGE_S = 365 * 24 * 3600;

export const setDashboardLocaleAction = dashboardAction(
  "read",
  { args: (locale: (typeof DASHBOARD_LOCALES)[number]) => ({ input: locale }), input: oneOf("locale", DASHBOARD_LOCALES, "Unknown language.") },
  async ({ input: locale }) => {
    (await cookies()).set(DASHBOARD_LOCALE_COOKIE, locale, { httpOnly: true, sameSite: "lax", path: "/dashboard", secure: config().APP_URL.startsWith("https://"), maxAge: LOCALE_MAX_AGE_S });
    return { locale };
  },
);
