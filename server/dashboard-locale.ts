// The signed-in user's dashboard language for this request (web tier: it reads the cookie and
// Accept-Language; lib/i18n/dashboard-locale.ts decides from the plain values).
import { cookies, headers } from "next/headers";
import { DASHBOARD_LOCALE_COOKIE, dashboardLocale, type DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { dashboardMessages } from "@/components/dashboard/i18n/messages";

export async function currentDashboardLocale(): Promise<DashboardLocale> {
  return dashboardLocale((await cookies()).get(DASHBOARD_LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
}

/** A page's <title> in the user's language: "Assinaturas · Painel". */
export async function dashboardTitle(pick: (t: ReturnType<typeof dashboardMessages>["titles"]) => string): Promise<{ title: string }> {
  const t = dashboardMessages(await currentDashboardLocale()).titles;
  return { title: `${pick(t)} · ${t.dashboard}` };
}
