// Buyer-page text in the three languages we serve, by locale: English is the reference
// (messages-en.ts, which also gives the type every language must fill), then messages-es.ts and
// messages-pt-br.ts.
import type { Locale } from "@/lib/i18n/locale";
import { en, type Messages } from "@/lib/i18n/messages-en";
import { es } from "@/lib/i18n/messages-es";
import { ptBR } from "@/lib/i18n/messages-pt-br";

export type { Messages };

const ALL: Record<Locale, Messages> = { en, es, "pt-BR": ptBR };

export function messages(locale: Locale): Messages {
  return ALL[locale];
}
