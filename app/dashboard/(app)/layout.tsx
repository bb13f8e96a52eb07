import type { ReactNode } from "react";
import { requireDashboard } from "@/server/dashboard";
import { DashboardProviders } from "@/components/dashboard/providers";
import { DashboardShell } from "@/components/dashboard/shell";
import { TimeZoneProvider } from "@/components/ui/time-zone";

// Every page below is per-user and per-environment: never cached.
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const d = await requireDashboard();
  return (
    <DashboardProviders>
      {/* Every time below is shown in the merchant's zone (merchants.time_zone, UTC unless set). */}
      <TimeZoneProvider timeZone={d.merchant.timeZone}>
      <DashboardShell merchantName={d.merchant.name} email={d.user.email} role={d.user.role} environment={d.environment}>
        {children}
      </DashboardShell>
      </TimeZoneProvider>
    </DashboardProviders>
  );
}
