// The code-to-words lookups a translated table shares (statuses, reasons, kinds, file types,
// the API's refusals, roles): each language gives its maps, this builds the functions the message
// type asks for, with the same fallbacks everywhere (English for a status not translated yet, the
// API's word for an unknown reason, the API's message for an unmapped refusal).
import type { DashboardMessages } from "@/components/dashboard/i18n/messages-en";
import { claimStatusOf, statusWord, type StatusOf } from "@/components/dashboard/status-words";
import { fileTypeWord } from "@/components/dashboard/plain-words";

type Maps = {
  status: Partial<Record<StatusOf, Record<string, string>>>;
  /** A MED's statuses (the payer's bank releases or returns the blocked amount). */
  medStatus: Record<string, string>;
  reasons: Record<string, string>;
  kinds: Record<string, string>;
  kindFilters: Record<string, string>;
  fileTypes: Record<string, string>;
  apiErrors: Record<string, string>;
  roles: Record<string, string>;
};

export function lookups(m: Maps) {
  const status = (of: StatusOf, s: string): string => m.status[of]?.[s] ?? statusWord(of, s);
  const reason = (r: string | null | undefined): string | null => (r ? (m.reasons[r] ?? r) : null);
  return {
    status,
    role: (role: string) => m.roles[role] ?? role,
    apiError: ((message, code) => (code && m.apiErrors[code]) || message) as DashboardMessages["common"]["apiError"],
    claims: {
      kind: (k: string | null | undefined) => m.kinds[k ?? ""] ?? m.kinds.user_dispute!,
      status: (s: string, k?: string | null) => (k === "pix_med" ? (m.medStatus[s] ?? statusWord("chargeback", s)) : status(claimStatusOf(k), s)),
      kindFilter: (k: string) => m.kindFilters[k] ?? k,
      reason,
      titleReason: (r: string | null | undefined) => (r === "chargeback" ? null : reason(r)),
    },
    fileType: (t: string) => m.fileTypes[t.toLowerCase()] ?? fileTypeWord(t),
  };
}
