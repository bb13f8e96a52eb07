"use client";
// The signed-in merchant's time zone for every time the dashboard shows: the layout reads it
// on the server and provides it here, components take their formatters from useTimes().
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { formatDate, formatDateTime, formatDay, formatShortDateTime, zoneOffset } from "@/lib/platform/format/date-time";

const TimeZoneContext = createContext("UTC");

export function TimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={timeZone}>{children}</TimeZoneContext.Provider>;
}

export type Times = {
  timeZone: string;
  formatDateTime: (iso: string | null | undefined) => string;
  formatShortDateTime: (iso: string | null | undefined) => string;
  formatDate: (iso: string | null | undefined) => string;
  formatDay: (iso: string | null | undefined) => string;
  zoneOffset: () => string;
};

/** Formatters bound to the merchant's zone. */
export function useTimes(): Times {
  const timeZone = useContext(TimeZoneContext);
  return useMemo(
    () => ({
      timeZone,
      formatDateTime: (iso) => formatDateTime(iso, timeZone),
      formatShortDateTime: (iso) => formatShortDateTime(iso, timeZone),
      formatDate: (iso) => formatDate(iso, timeZone),
      formatDay: (iso) => formatDay(iso, timeZone),
      zoneOffset: () => zoneOffset(timeZone),
    }),
    [timeZone],
  );
}
