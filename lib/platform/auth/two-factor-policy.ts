// Who must use two-factor sign-in: in production, owners (they control the team and the keys)
// and every role that may move money. Elsewhere it is optional, so development and tests sign in
// with a password alone.
import { config } from "@/lib/platform/config";
import { can } from "@/lib/platform/auth/policy";
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export function twoFactorRequired(role: DashboardRole, appEnv: string = config().APP_ENV): boolean {
  return appEnv === "production" && (role === "owner" || can(role, "moveMoney"));
}
