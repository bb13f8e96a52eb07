// The few words the shared UI pieces say themselves (a countdown, a copy button, a pager), in
// each dashboard language. English is the reference and the type; a missing key fails tsc.
import type { DashboardLocale } from "@/lib/i18n/dashboard-locale";

const en = {
  copied: "Copied",
  copiedToClipboard: "Copied to the clipboard",
  copyId: "Copy id",
  id: "Id",
  answerWindowClosed: "Answer window closed",
  due: "due",
  /** "1–25 of 40". */
  range: (from: number, to: number, total: number) => `${from}–${to} of ${total}`,
  previous: "Previous",
  next: "Next",
  breadcrumb: "Breadcrumb",
};
export type UiWords = typeof en;

const ptBR: UiWords = {
  copied: "Copiado",
  copiedToClipboard: "Copiado para a área de transferência",
  copyId: "Copiar ID",
  id: "ID",
  answerWindowClosed: "Prazo de resposta encerrado",
  due: "prazo até",
  range: (from, to, total) => `${from}–${to} de ${total}`,
  previous: "Anterior",
  next: "Próxima",
  breadcrumb: "Navegação estrutural",
};

const es: UiWords = {
  copied: "Copiado",
  copiedToClipboard: "Copiado al portapapeles",
  copyId: "Copiar ID",
  id: "ID",
  answerWindowClosed: "Plazo de respuesta cerrado",
  due: "vence",
  range: (from, to, total) => `${from}–${to} de ${total}`,
  previous: "Anterior",
  next: "Siguiente",
  breadcrumb: "Ruta de navegación",
};

const ALL: Record<DashboardLocale, UiWords> = { en, es, "pt-BR": ptBR };
export const uiWords = (locale: DashboardLocale = "en"): UiWords => ALL[locale];
