// The buyer's locale inside a server component: proxy.ts resolved it once per request (from
// ?locale= and Accept-Language) and passed it on as request headers; the root layout reads the
// same headers for <html lang>. Web tier (next/headers), so it lives here and not in lib/.
import type { Metadata } from "next";
import { headers } from "next/headers";
import { LOCALES, resolveLocale, type BuyerLocale, type Locale } from "@/lib/i18n/locale";
import { messages, type Messages } from "@/lib/i18n/messages";

export async function buyerLocale(): Promise<BuyerLocale & { t: Messages }> {
  const h = await headers();
  const locale = h.get("x-buyer-locale");
  const tag = h.get("x-buyer-format");
  const resolved = locale && (LOCALES as readonly string[]).includes(locale) && tag ? { locale: locale as Locale, formatTag: tag } : resolveLocale(null, h.get("accept-language"));
  return { ...resolved, t: messages(resolved.locale) };
}

/** A buyer page's metadata: its tab title in the buyer's language, kept out of search engines. */
export async function buyerMetadata(page: keyof Messages["pageTitle"]): Promise<Metadata> {
  const { t } = await buyerLocale();
  return { title: t.pageTitle[page], robots: { index: false, follow: false } };
}
