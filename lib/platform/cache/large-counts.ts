// Totals of long lists (every paged list's `pagination.total`). Counting a million payments, a
// grown webhook subscription's deliveries or a busy merchant's events costs more than the page it
// totals, and grows with history. A total of LARGE or more is kept in memory: served as it is
// for FRESH_MS, then served while one background count refreshes it, until it is STALE_MS old;
// older than that the request counts again and waits. A smaller total is counted for each request
// (its own statement, never one that began before the request did), so a short list's total always
// agrees with what the request itself just wrote.
import { rememberBounded } from "@/lib/platform/bounded";
import { singleton } from "@/lib/platform/singleton";

export const LARGE = 1_000;
export const FRESH_MS = 2_000;
export const STALE_MS = 60_000;
const MAX_KEYS = 10_000;

/** `at`: when the count that gave `value` began (its age is measured from there). */
type Entry = { at: number; value: number; refreshing: boolean };
const totals = singleton("large-counts", () => new Map<string, Entry>());

function remember(key: string, at: number, value: number): void {
  const entry = totals.get(key);
  // A count that began earlier than the kept one's (a slow refresh) does not replace it.
  if (entry && entry.at > at) return;
  rememberBounded(totals, key, { at, value, refreshing: false }, MAX_KEYS);
}

async function countNow(key: string, load: () => Promise<number>): Promise<number> {
  const at = Date.now();
  const value = await load();
  if (value >= LARGE) remember(key, at, value);
  else totals.delete(key);
  return value;
}

/**
 * The list's total for `key` (which must hold every filter and the caller's whole scope:
 * merchant, environment, shop), by `load` or from a recent count when the total is LARGE or more.
 */
export function countOfList(key: string, load: () => Promise<number>): Promise<number> {
  const entry = totals.get(key);
  const age = entry ? Date.now() - entry.at : Infinity;
  if (!entry || age > STALE_MS) return countNow(key, load);
  if (age > FRESH_MS && !entry.refreshing) {
    entry.refreshing = true;
    countNow(key, load).catch(() => {
      entry.refreshing = false;
    });
  }
  return Promise.resolve(entry.value);
}

/** Forget every kept total (tests). */
export function forgetCounts(): void {
  totals.clear();
}
