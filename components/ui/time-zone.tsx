"use client";
// The signed-in merchant's time zone for every time the dashboard shows, and the user's dashboard
// language the times are written in: the layout reads both on the server and provides them here,
// components take their formatters from useTimes().
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { formatDate, formatDateTime, formatDay, formatShortDateTime, zoneOffset } from "@/lib/platform/format/date-time";
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";

const TimeZoneContext = createContext<{ timeZone: string; locale: DashboardLocale }>({ timeZone: "UTC", locale: "en" });

export function TimeZoneProvider({ timeZone, locale = "en", children }: { timeZone: string; locale?: DashboardLocale; children: ReactNode }) {
  const value = useMemo(() => ({ timeZone, locale }), [timeZone, locale]);
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

export type Times = {
  timeZone: string;
  /** The user's dashboard language (the words of components/ui read it too). */
  locale: DashboardLocale;
  formatDateTime: (iso: string | null | undefined) => string;
  formatShortDateTime: (iso: string | null | undefined) => string;
  formatDate: (iso: string | null | undefined) => string;
  formatDay: (iso: string | null | undefined) => string;
  zoneOffset: () => string;
};

/** Formatters bound to the merchant's zone. */
export function useTimes(): Times {
  const { timeZone, locale } = useContext(TimeZoneContext);
  return useMemo(
    () => ({
      timeZone,
      locale,
      formatDateTime: (iso) => formatDateTime(iso, timeZone, locale),
      formatShortDateTime: (iso) => formatShortDateTime(iso, timeZone, locale),
      formatDate: (iso) => formatDate(iso, timeZone, locale),
      formatDay: (iso) => formatDay(iso, timeZone, locale),
      zoneOffset: () => zoneOffset(timeZone),
    }),
    [timeZone, locale],
  );
}
