// FX rates, USD base (decisions.md): sandbox uses fixed seeded rates; production reads the
// fx_rates table and refuses a rate older than 24 h (422 fx_unavailable, never guessed).
import { db } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import type { Environment } from "@/lib/generated/prisma/enums";

export const SANDBOX_RATES: Record<string, string> = { USD: "1", BRL: "5.40", MXN: "18.20", COP: "4100", PEN: "3.75", CLP: "950", ARS: "1000", EUR: "0.92" };
export const MAX_RATE_AGE_MS = 24 * 3600 * 1000;
/** Presentment markup: 2% (decisions.md). */
export const PRESENTMENT_MARKUP_BP = 200n;

const CACHE_MS = 30_000;
const cache = singleton("fx-cache", () => new Map<string, { at: number; rate: string | null; updatedAt: number }>());

export async function rateFor(environment: Environment, quote: string): Promise<string | null> {
  if (quote === "USD") return "1";
  if (environment === "sandbox") return SANDBOX_RATES[quote] ?? null;
  const hit = cache.get(quote);
  let entry = hit && Date.now() - hit.at < CACHE_MS ? hit : undefined;
  if (!entry) {
    const row = await db().fxRate.findUnique({ where: { quote } });
    entry = { at: Date.now(), rate: row ? row.rate.toString() : null, updatedAt: row?.updatedAt.getTime() ?? 0 };
    cache.set(quote, entry);
  }
  if (!entry.rate || Date.now() - entry.updatedAt > MAX_RATE_AGE_MS) return null;
  return entry.rate;
}

export async function setRate(quote: string, rate: string, source: string) {
  await db().fxRate.upsert({ where: { quote }, create: { quote, rate, source, updatedAt: new Date() }, update: { rate, source, updatedAt: new Date() } });
  cache.delete(quote);
}
