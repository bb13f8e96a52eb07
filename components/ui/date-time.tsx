"use client";
import { useTimes } from "@/components/ui/time-zone";

/**
 * A moment in a table cell: the day on one line, the time under it, each never broken, so a
 * narrow column shows the whole date ("Oct 28, 2026") instead of clipping it ("10/28/202").
 * In the merchant's time zone, its offset named ("14:03:05 GMT-3").
 */
export function DateTimeCell({ iso }: { iso: string | null | undefined }) {
  const { formatDateTime, timeZone } = useTimes();
  if (!iso) return <span className="text-slate-600">—</span>;
  const text = formatDateTime(iso);
  // "Oct 28, 2026, 14:03:05 GMT-3": the day is everything before the last comma.
  const cut = text.lastIndexOf(", ");
  const [day, time] = cut > 0 ? [text.slice(0, cut), text.slice(cut + 2)] : [text, ""];
  return (
    <time dateTime={iso} title={timeZone} className="block">
      <span className="block whitespace-nowrap">{day}</span>
      {time ? <span className="block whitespace-nowrap text-xs text-slate-600">{time}</span> : null}
    </time>
  );
}
