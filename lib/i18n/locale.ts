// The buyer's language: `?locale=` wins, then Accept-Language (by q), else English. Three
// languages are translated; numbers and money follow the buyer's own region when the request
// names one of the same language (es-CO gets Colombian formatting in Spanish text).
export const LOCALES = ["en", "es", "pt-BR"] as const;
export type Locale = (typeof LOCALES)[number];

const DEFAULT_TAG: Record<Locale, string> = { en: "en-US", es: "es-MX", "pt-BR": "pt-BR" };

export type BuyerLocale = { locale: Locale; formatTag: string };

function languageOf(tag: string): Locale | null {
  const lang = tag.toLowerCase().split("-")[0];
  if (lang === "es") return "es";
  if (lang === "pt") return "pt-BR";
  if (lang === "en") return "en";
  return null;
}

function canonicalTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

function fromTag(tag: string): BuyerLocale | null {
  const canonical = canonicalTag(tag.trim());
  const locale = canonical ? languageOf(canonical) : null;
  if (!canonical || !locale) return null;
  return { locale, formatTag: canonical.includes("-") ? canonical : DEFAULT_TAG[locale] };
}

/** Accept-Language entries, best first (ties keep header order). */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((e) => e.tag && e.tag !== "*" && Number.isFinite(e.q) && e.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((e) => e.tag);
}

export function resolveLocale(override: string | null | undefined, acceptLanguage: string | null | undefined): BuyerLocale {
  if (override) {
    const picked = fromTag(override);
    if (picked) return picked;
  }
  for (const tag of parseAcceptLanguage(acceptLanguage ?? "")) {
    const picked = fromTag(tag);
    if (picked) return picked;
  }
  return { locale: "en", formatTag: DEFAULT_TAG.en };
}

// Formatters are costly to build (ICU data per locale) and there are few of them: kept per
// (tag, currency) and (tag, time zone). Immutable, so a copy per bundle (no singleton) is harmless.
const moneyFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Money for people: the currency's own symbol and decimals in the buyer's format. */
export function formatMoney(major: number, currency: string, formatTag: string): string {
  const key = `${formatTag}|${currency}`;
  let f = moneyFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(formatTag, { style: "currency", currency });
    if (moneyFormats.size < 1_000) moneyFormats.set(key, f);
  }
  return f.format(major);
}

const COUNTRY_TIME_ZONE: Record<string, string> = { BRA: "America/Sao_Paulo", MEX: "America/Mexico_City", COL: "America/Bogota", PER: "America/Lima", CHL: "America/Santiago", ARG: "America/Argentina/Buenos_Aires" };

/** A moment in the buyer's country's time (UTC when unknown), with the zone named. */
export function formatDateTime(date: Date, formatTag: string, countryIso3?: string | null): string {
  const timeZone = (countryIso3 && COUNTRY_TIME_ZONE[countryIso3]) || "UTC";
  const key = `${formatTag}|${timeZone}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(formatTag, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone, timeZoneName: "short" });
    if (dateFormats.size < 1_000) dateFormats.set(key, f);
  }
  return f.format(date);
}
