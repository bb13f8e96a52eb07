// A recurring PIX mandate in a shop owner's words: "R$ 49,90 a month", "Up to R$ 200,00 a
// month" ("R$ 49,90 por mês", "Até R$ 200,00 por mês" in pt-BR), and its calendar days (a due
// date is a day in Brasília, not a moment: it is written as the day it is, never shifted by the
// merchant's time zone). Constants and pure functions, so client components may import them.
import { formatMoney } from "@/components/ui/money";
import { formatDay } from "@/lib/platform/format/date-time";
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { dashboardMessages } from "@/components/dashboard/i18n/messages";

/** "R$ 49,90 a month" (fixed) or "Up to R$ 200,00 a month" (variable), in the user's language. */
export function mandateTerms(m: { amount: number | null; maxAmount: number | null; currency: string; period: string }, locale: DashboardLocale = "en"): string {
  const w = dashboardMessages(locale).mandate;
  const every = w.period[m.period] ?? m.period;
  if (m.amount !== null) return w.fixed(formatMoney(m.amount, m.currency), every);
  return w.upTo(formatMoney(m.maxAmount ?? 0, m.currency), every);
}

/** "9 Dec 2026" ("9 de dez. de 2026"): a mandate's calendar day (YYYY-MM-DD), as the day it names. */
export const calendarDay = (isoDay: string | null | undefined, locale: DashboardLocale = "en"): string => (isoDay ? formatDay(`${isoDay}T00:00:00.000Z`, "UTC", locale) : "—");
