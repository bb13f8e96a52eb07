// What each dashboard role may do, in one table. Pages hide what a role cannot do; server actions
// and data routes check the same table, so hiding is never the only guard.
import type { DashboardRole } from "@/lib/generated/prisma/enums";

export const PERMISSIONS = {
  /** Refunds, payouts, transfers: anything that moves money (sandbox simulations included). */
  moveMoney: ["owner", "developer"],
  /** Secrets shown once (webhook signing secrets, rolled secret keys) and the actions that mint them. */
  seeSecrets: ["owner", "developer"],
  /** Webhook subscriptions and delivery replays. */
  manageWebhooks: ["owner", "developer"],
  /** Invite and remove dashboard users, change their roles. */
  manageTeam: ["owner"],
  /** The merchant's security log (sign-ins, two-factor, keys, webhook secrets, team changes). */
  readSecurityLog: ["owner"],
} as const satisfies Record<string, readonly DashboardRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: DashboardRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly DashboardRole[]).includes(role);
}

export const ROLES = ["owner", "developer", "viewer"] as const satisfies readonly DashboardRole[];
