"use server";
// The team (owners only: manageTeam) and accepting an invite (no session: the link's token is
// the credential).
import { headers } from "next/headers";
import { continueSession } from "@/server/dashboard";
import { dashboardAction } from "@/server/dashboard-action";
import { clientIp } from "@/lib/platform/http/client-ip";
import { acceptInviteBody, inviteBody, roleBody } from "@/lib/accounts/schema";
import { inviteUser, renewInvite } from "@/lib/accounts/invite-user";
import { acceptInvite } from "@/lib/accounts/accept-invite";
import { changeRole } from "@/lib/accounts/change-role";
import { removeUser } from "@/lib/accounts/remove-user";

/** Once per form (a double click or a retry invites once); the answer holds the link, so it is never stored. */
export const inviteUserAction = dashboardAction(
  "manageTeam",
  { args: (form: { email: string; role: string }, formKey?: string) => ({ formKey, input: form }), input: inviteBody, once: "team-invite", replay: ({ ctx }, ref) => renewInvite(ctx, ref.id), storeAnswer: false },
  ({ ctx, input }) => inviteUser(ctx, input),
);

/** A new link for a pending invite (the previous one stops working). */
export const renewInviteAction = dashboardAction("manageTeam", { args: (userId: string) => ({ userId }) }, ({ ctx, userId }) => renewInvite(ctx, String(userId)));

export const changeRoleAction = dashboardAction("manageTeam", { args: (userId: string, role: string) => ({ userId, input: { role } }), input: roleBody }, async ({ d, ctx, userId, input }) => {
  const { sessionVersion, ...user } = await changeRole(ctx, String(userId), input.role);
  // An owner changing their own role keeps this session (with the new role); the others end.
  if (user.id === d.user.id && sessionVersion !== null) await continueSession(d, { ...d.session, version: sessionVersion });
  return user;
});

export const removeUserAction = dashboardAction("manageTeam", { args: (userId: string) => ({ userId }) }, ({ ctx, userId }) => removeUser(ctx, String(userId)));

/** The invitee sets their password through the link; no session (the token is the credential). */
export const acceptInviteAction = dashboardAction(
  "public",
  { args: (token: string, form: { password: string }) => ({ token, input: form }), input: acceptInviteBody },
  async ({ token, input }) => acceptInvite(String(token), input.password, clientIp(await headers()) ?? undefined),
);
