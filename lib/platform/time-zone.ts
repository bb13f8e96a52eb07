// IANA time zones: checked with the runtime's own database (Intl), never a hand-kept list.

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
