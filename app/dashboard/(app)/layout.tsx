import type { ReactNode } from "react";
import { requireDashboard } from "@/server/dashboard";
import { currentDashboardLocale } from "@/server/dashboard-locale";
import { DashboardProviders } from "@/components/dashboard/providers";
import { DashboardShell } from "@/components/dashboard/shell";
import { TimeZoneProvider } from "@/components/ui/time-zone";

// Every page below is per-user and per-environment: never cached.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const d = await requireDashboard();
  // The user's dashboard language: their choice (a cookie), else the browser's Accept-Language.
  const locale = await currentDashboardLocale();
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
