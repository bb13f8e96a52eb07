// How long a shop has left to answer a dispute, in the words a shop owner reads at a glance:
// "6 days left", "5 hours left", "40 minutes left", "closed". Whole units, rounded down, so the
// words never promise more time than there is; under a minute reads "less than a minute left".

export type TimeLeft = { words: string; urgent: boolean; closed: boolean };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Unit = "day" | "hour" | "minute";
// Per language: n units left, and under a minute, as a shop owner reads it: "faltam 6 dias", "quedan 6 días".
const WORDS: Record<"en" | "es" | "pt-BR", { closed: string; left: (n: number, unit: Unit) => string; underAMinute: string }> = {
  en: { closed: "closed", left: (n, unit) => `${n} ${unit}${n === 1 ? "" : "s"} left`, underAMinute: "less than a minute left" },
  "pt-BR": {
    closed: "encerrado",
    left: (n, unit) => {
      const word = { day: ["dia", "dias"], hour: ["hora", "horas"], minute: ["minuto", "minutos"] }[unit][n === 1 ? 0 : 1];
      return `${n === 1 ? "falta" : "faltam"} ${n} ${word}`;
    },
    underAMinute: "falta menos de um minuto",
  },
  es: {
    closed: "cerrado",
    left: (n, unit) => {
      const word = { day: ["día", "días"], hour: ["hora", "horas"], minute: ["minuto", "minutos"] }[unit][n === 1 ? 0 : 1];
      return `${n === 1 ? "queda" : "quedan"} ${n} ${word}`;
    },
    underAMinute: "queda menos de un minuto",
  },
};

/** Time from `nowMs` until `dueIso`; `urgent` from under 24 hours left. */
export function timeLeft(dueIso: string, nowMs: number, locale: "en" | "es" | "pt-BR" = "en"): TimeLeft {
  const w = WORDS[locale];
  const left = Date.parse(dueIso) - nowMs;
  if (!Number.isFinite(left) || left <= 0) return { words: w.closed, urgent: false, closed: true };
  const urgent = left < DAY;
  if (left >= 2 * DAY) return { words: w.left(Math.floor(left / DAY), "day"), urgent, closed: false };
  if (left >= HOUR) return { words: w.left(Math.floor(left / HOUR), "hour"), urgent, closed: false };
  if (left >= MINUTE) return { words: w.left(Math.floor(left / MINUTE), "minute"), urgent, closed: false };
  return { words: w.underAMinute, urgent, closed: false };
}
