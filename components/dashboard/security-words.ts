// The security log's events in sentences ("Invited a team member"), the API's event name kept
// for the row's tooltip: one map, typed by the log's own list, so a new event type fails the
// typecheck until it has words. A row's details read as a short phrase, not `key: value`.
import type { SecurityEventType } from "@/lib/accounts/record-security-event";
import { ROLE_LABELS } from "@/components/dashboard/payment-labels";

export const SECURITY_EVENT_WORDS: Record<SecurityEventType, string> = {
  "sign_in.succeeded": "Signed in",
  "sign_in.failed": "Failed to sign in",
  "two_factor.enabled": "Turned on two-factor sign-in",
  "two_factor.disabled": "Turned off two-factor sign-in",
  "recovery_code.used": "Signed in with a recovery code",
  "api_key.rolled": "Rolled an API key",
  "webhook_secret.revealed": "Revealed a webhook signing secret",
  "webhook_secret.rotated": "Rotated a webhook signing secret",
  "team.invited": "Invited a team member",
  "team.invite_accepted": "Accepted an invitation to the team",
  "password.changed": "Changed their password",
  "team.role_changed": "Changed a team member's role",
  "team.removed": "Removed a team member",
};

/** An event type in words; a type the map does not know (an older row), made a sentence. */
export function securityEventWord(type: string): string {
  const known = (SECURITY_EVENT_WORDS as Record<string, string>)[type];
  if (known) return known;
  const plain = type.replace(/[._]/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

const FAILED_SIGN_IN: Record<string, string> = { password: "Wrong password", totp: "Wrong two-factor code", recovery_code: "Wrong recovery code" };
const ENVIRONMENT_WORDS: Record<string, string> = { sandbox: "Sandbox", production: "Production" };
const role = (r: unknown) => ROLE_LABELS[String(r)] ?? String(r);

/**
 * What a row's details say, as a phrase: "ana@example.com as Viewer", "Developer → Viewer",
 * "Sandbox". Ids (a webhook's, a key pair's) are not spelled out here: the page offers them to copy.
 */
export function securityDetailWords(type: string, details: Record<string, unknown> | null): string {
  const d = details ?? {};
  switch (type) {
    case "team.invited":
    case "team.removed":
      return [d.email, d.role ? `as ${role(d.role)}` : null].filter(Boolean).join(" ");
    case "team.role_changed":
      return `${d.email ?? ""}: ${role(d.from)} → ${role(d.to)}`.replace(/^: /, "");
    case "sign_in.failed":
      return FAILED_SIGN_IN[String(d.reason)] ?? "";
    case "sign_in.succeeded":
      return d.twoFactor === true ? "With two-factor" : d.twoFactor === false ? "Password only" : "";
    case "webhook_secret.revealed":
    case "webhook_secret.rotated":
      return d.environment ? `${ENVIRONMENT_WORDS[String(d.environment)] ?? String(d.environment)} webhook endpoint` : "";
    case "api_key.rolled":
      return d.environment ? `${ENVIRONMENT_WORDS[String(d.environment)] ?? String(d.environment)} keys` : "";
    default:
      return Object.entries(d)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([, v]) => String(v))
        .join(" · ");
  }
}

/** The id a row's details carry (a webhook's, a key pair's), to copy beside its words. */
export function securityDetailId(details: Record<string, unknown> | null): string | null {
  const id = details?.webhookId ?? details?.keyPairId;
  return typeof id === "string" ? id : null;
}
