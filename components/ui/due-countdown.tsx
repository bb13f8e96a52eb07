"use client";
import { useEffect, useState } from "react";
import { useTimes } from "@/components/ui/time-zone";
import { timeLeft } from "@/lib/platform/format/time-left";
import { uiWords } from "@/components/ui/ui-words";

/**
 * A deadline counting down: "6 days left · due Dec 9, 14:00 GMT-3", amber under a day, read
 * again every 30 s. The server renders the words at its own clock; the browser takes over after
 * hydration (its clock may differ by a minute, hence suppressHydrationWarning on the words).
 */
export function DueCountdown({ dueIso, label, className }: { dueIso: string; label: string; className?: string }) {
  const { formatShortDateTime, locale } = useTimes();
  const w = uiWords(locale);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  const left = timeLeft(dueIso, now, locale);
  return (
    <span className={className} data-testid="due-countdown" data-closed={left.closed ? "true" : "false"}>
      <span className="sr-only">{label}: </span>
      <strong suppressHydrationWarning className={left.urgent ? "font-semibold text-amber-800" : left.closed ? "font-medium text-slate-700" : "font-medium text-slate-800"}>
        {left.closed ? w.answerWindowClosed : left.words}
      </strong>
      <span className="text-slate-600">
        {" "}
        · {w.due} <time dateTime={dueIso}>{formatShortDateTime(dueIso)}</time>
      </span>
    </span>
  );
}
