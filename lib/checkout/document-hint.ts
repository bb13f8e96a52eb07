// The words under the document field for a rail: its rule's format, or that rule's words in the
// rail's country where the country names what it accepts (a Mexican buyer's "any document" is a
// CURP, an RFC or an INE number). The one reader of `documentFormat`, for the hint, the error
// after a rejected pick and the script that follows the picked method.
import type { Messages } from "@/lib/i18n/messages";
import type { Rail } from "@/lib/rails/rails";

export function documentHint(t: Messages, rail: Pick<Rail, "documentRule" | "countryIso2"> | undefined): string {
  if (!rail) return t.documentFormat.any!;
  return t.documentFormat[`${rail.documentRule}:${rail.countryIso2}`] ?? t.documentFormat[rail.documentRule]!;
}
