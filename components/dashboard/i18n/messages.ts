// The dashboard's words by language: English is the reference (messages-en.ts, also the type),
// es and pt-BR fill every key of it. Server components call dashboardMessages(locale) directly; client
// components take them through useWords() (words.tsx).
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";
import { en, type DashboardMessages } from "@/components/dashboard/i18n/messages-en";
import { ptBR } from "@/components/dashboard/i18n/messages-pt-br";
import { es } from "@/components/dashboard/i18n/messages-es";

export type { DashboardMessages };

const ALL: Record<DashboardLocale, DashboardMessages> = { en, es, "pt-BR": ptBR };

export const dashboardMessages = (locale: DashboardLocale): DashboardMessages => ALL[locale];
