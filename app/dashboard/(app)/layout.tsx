import type { ReactNode } from "react";
import { cookies, headers } from "next/headers";
import { requireDashboard } from "@/server/dashboard";
import { DASHBOARD_LOCALE_COOKIE, dashboardLocale } from "@/lib/i18n/dashboard-locale";
import { DashboardProviders } from "@/components/dashboard/providers";
import { DashboardShell } from "@/components/dashboard/shell";
import { TimeZoneProvider } from "@/components/ui/time-zone";

// Every page below is per-user and per-environment: never cached.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const d = await requireDashboard();
  // The user's dashboard language: their choice (a cookie), else the browser's Accept-Language.
  const locale = dashboardLocale((await cookies()).get(DASHBOARD_LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
  return (
    <DashboardProviders>
      {/* Every time below is shown in the merchant's zone (merchants.time_zone, UTC unless set),
          in the user's language, which the pages' words follow too. */}
      <TimeZoneProvider timeZone={d.merchant.timeZone} locale={locale}>
      <DashboardShell merchantName={d.merchant.name} email={d.user.email} role={d.user.role} environment={d.environment} locale={locale}>
        {children}
      </DashboardShell>
      </TimeZoneProvider>
    </DashboardProviders>
  );
}
