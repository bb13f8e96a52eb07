// The dashboard's one way to write a moment: in the merchant's time zone (merchants.time_zone,
// an IANA name), always with the zone's offset ("GMT-3", "UTC") so a time is never ambiguous.
// Plain functions of (iso, zone): server pages call them directly, client components through
// useTimes() (components/ui/time-zone.tsx), which supplies the signed-in merchant's zone and the
// user's dashboard language (`locale`: English unless given; pt-BR writes "28 de out. de 2026",
// Spanish is Latin America's, es-419).

export type DateLocale = "en" | "es" | "pt-BR";

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: "dateTime" | "date" | "short" | "day", timeZone: string, locale: DateLocale = "en"): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}|${locale}`;
  let f = cache.get(key);
  if (!f) {
    const zone = { timeZone, timeZoneName: "shortOffset" } as const;
    const options: Intl.DateTimeFormatOptions =
      kind === "dateTime"
        ? { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", ...zone }
        : kind === "short"
          ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", ...zone }
          : kind === "day"
            ? { day: "numeric", month: "short", year: "numeric", timeZone }
            : { year: "numeric", month: "short", day: "numeric", timeZone };
    // en-GB for "22 Feb 2027" (no comma to dangle in a narrow cell), en-US elsewhere.
    f = new Intl.DateTimeFormat(locale === "pt-BR" ? "pt-BR" : locale === "es" ? "es-419" : kind === "day" ? "en-GB" : "en-US", options);
    cache.set(key, f);
  }
  return f;
}

/** "GMT-3" stays; offset 0 ("GMT", "GMT+0": runtimes differ) reads "UTC". */
const plainZone = (s: string) => s.replace(/\bGMT(?:\+0)?(?![+\-\d:])/, "UTC");

/** "Oct 28, 2026, 14:03:05 GMT-3". */
export function formatDateTime(iso: string | Date | null | undefined, timeZone: string, locale?: DateLocale): string {
  if (!iso) return "—";
  return plainZone(formatter("dateTime", timeZone, locale).format(new Date(iso)));
}

/** "Oct 28, 14:03 GMT-3": a moment in a narrow card (the year left out). */
export function formatShortDateTime(iso: string | Date | null | undefined, timeZone: string, locale?: DateLocale): string {
  if (!iso) return "—";
  return plainZone(formatter("short", timeZone, locale).format(new Date(iso)));
}

/** "Oct 28, 2026": the day the moment falls on in the zone. */
export function formatDate(iso: string | Date | null | undefined, timeZone: string, locale?: DateLocale): string {
  if (!iso) return "—";
  return formatter("date", timeZone, locale).format(new Date(iso));
}

/** "28 Oct 2026": the same day, day first. */
export function formatDay(iso: string | Date | null | undefined, timeZone: string, locale?: DateLocale): string {
  if (!iso) return "—";
  return formatter("day", timeZone, locale).format(new Date(iso));
}

/** The zone's offset at a moment ("GMT-3", "UTC"), for saying which zone times are in. */
export function zoneOffset(timeZone: string, at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return plainZone(part?.value ?? "UTC");
}

const dayKeys = new Map<string, Intl.DateTimeFormat>();
/** "2026-12-01": the calendar day a moment falls on in the zone (what a date input holds). */
export function calendarDay(at: Date | number, timeZone: string): string {
  let f = dayKeys.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayKeys.set(timeZone, f);
  }
  return f.format(at);
}

/** The calendar day `days` before a "YYYY-MM-DD" day (calendar arithmetic: no zone, no DST). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** A chart bucket's label in the zone: "18:00" for an hour, "Dec 1" for a day. */
export function formatBucket(iso: string, bucket: "hour" | "day", timeZone: string): string {
  const key = `bucket-${bucket}|${timeZone}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", bucket === "hour" ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone } : { month: "short", day: "numeric", timeZone });
    cache.set(key, f);
  }
  return f.format(new Date(iso));
}
