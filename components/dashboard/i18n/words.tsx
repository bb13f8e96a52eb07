"use client";
// The signed-in user's dashboard words: the language comes with the merchant's time zone from the
// layout (components/ui/time-zone.tsx carries both), so one provider serves dates and words.
import { useTimes } from "@/components/ui/time-zone";
import { dashboardMessages } from "@/components/dashboard/i18n/messages";

/** The page's words in the user's language, and the language (for formatting and `lang`). */
export function useWords() {
  const { locale } = useTimes();
  return { locale, t: dashboardMessages(locale) };
}
