// Mandate dates are calendar days in Brasília time (PIX's clock; America/Sao_Paulo has kept UTC-3
// all year since 2019), stored as DATE columns (midnight UTC of that day in JavaScript).
const DAY_MS = 86_400_000;
const ZONE = "America/Sao_Paulo";
const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** "YYYY-MM-DD" -> the DATE column's value. */
export const dayOf = (iso: string): Date => new Date(`${iso}T00:00:00.000Z`);
export const isoDayOf = (d: Date): string => d.toISOString().slice(0, 10);
export const addDays = (d: Date, n: number): Date => new Date(d.getTime() + n * DAY_MS);

/** Today in São Paulo, as a DATE column's value. */
export function todayAt(now: Date): Date {
  return dayOf(dayFormat.format(now));
}

/** The instant a day ends in São Paulo (its next midnight there, 03:00 UTC). */
export function endOfDay(day: Date): Date {
  return new Date(addDays(day, 1).getTime() + 3 * 3_600_000);
}
