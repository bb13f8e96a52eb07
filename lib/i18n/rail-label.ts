// A rail as the buyer reads it: its name in the buyer's language (the catalog's `name` is the
// integrator's English label, "Card (test)", "Visa / Mastercard (Brazil)"), and its icon's
// label. Brands (PIX, SPEI, OXXO, PSE) keep their names in every language.
import type { Rail } from "@/lib/rails/rails";
import type { Messages } from "@/lib/i18n/messages";

export function railLabel(t: Messages, rail: Pick<Rail, "icon"> | undefined, fallback: string): string {
  return (rail && t.railName[rail.icon]) || fallback;
}

const BRAND: Record<string, string> = { pix: "PIX", spei: "SPEI", oxxo: "OXXO", pse: "PSE", boleto: "Boleto" };

export function railIconLabel(t: Messages, icon: string): string {
  return BRAND[icon] ?? t.railIcon[icon] ?? t.railIcon.generic!;
}
