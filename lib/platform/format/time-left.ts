// How long a shop has left to answer a dispute, in the words a shop owner reads at a glance:
// "6 days left", "5 hours left", "40 minutes left", "closed". Whole units, rounded down, so the
// words never promise more time than there is; under a minute reads "less than a minute left".

export type TimeLeft = { words: string; urgent: boolean; closed: boolean };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** Time from `nowMs` until `dueIso`; `urgent` from under 24 hours left. */
export function timeLeft(dueIso: string, nowMs: number): TimeLeft {
  const left = Date.parse(dueIso) - nowMs;
  if (!Number.isFinite(left) || left <= 0) return { words: "closed", urgent: false, closed: true };
  const urgent = left < DAY;
  if (left >= 2 * DAY) return { words: `${plural(Math.floor(left / DAY), "day")} left`, urgent, closed: false };
  if (left >= HOUR) return { words: `${plural(Math.floor(left / HOUR), "hour")} left`, urgent, closed: false };
  if (left >= MINUTE) return { words: `${plural(Math.floor(left / MINUTE), "minute")} left`, urgent, closed: false };
  return { words: "less than a minute left", urgent, closed: false };
}
