// What the mandate tests share: São Paulo calendar days and the job's future clock.

export const DAY = 86_400_000;

/** Today in São Paulo, as YYYY-MM-DD, plus `n` days. */
export function day(n: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** Noon in São Paulo (15:00 UTC) of `iso` plus `n` days: the job's future clock. */
export const noonOf = (iso: string, n = 0) => new Date(Date.parse(`${iso}T15:00:00Z`) + n * DAY);
