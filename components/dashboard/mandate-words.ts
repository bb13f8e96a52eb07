// A recurring PIX mandate in a shop owner's words: "R$ 49,90 a month", "Up to R$ 200,00 a
// month", and its calendar days (a due date is a day in Brasília, not a moment: it is written
// as the day it is, never shifted by the merchant's time zone). Constants and pure functions,
// so client components may import them.
import { formatMoney } from "@/components/ui/money";
import { formatDay } from "@/lib/platform/format/date-time";

const PERIOD_WORDS: Record<string, string> = { weekly: "a week", monthly: "a month", quarterly: "a quarter", yearly: "a year" };

/** "R$ 49,90 a month" (fixed) or "Up to R$ 200,00 a month" (variable). */
export function mandateTerms(m: { amount: number | null; maxAmount: number | null; currency: string; period: string }): string {
  const every = PERIOD_WORDS[m.period] ?? m.period;
  if (m.amount !== null) return `${formatMoney(m.amount, m.currency)} ${every}`;
  return `Up to ${formatMoney(m.maxAmount ?? 0, m.currency)} ${every}`;
}

/** "9 Dec 2026": a mandate's calendar day (YYYY-MM-DD), as the day it names. */
export const calendarDay = (isoDay: string | null | undefined): string => (isoDay ? formatDay(`${isoDay}T00:00:00.000Z`, "UTC") : "—");
