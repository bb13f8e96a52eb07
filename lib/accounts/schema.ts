// Shapes of the dashboard's account forms (team invites and role changes, two-factor codes, passwords).
import { z } from "zod";
import { ROLES } from "@/lib/platform/auth/policy";

export const inviteBody = z.object({
  email: z.string().trim().toLowerCase().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address"),
  role: z.enum(ROLES),
});

export const roleBody = z.object({ role: z.enum(ROLES) });

export const codeBody = z.object({ code: z.string().trim().min(6, "enter the code from your app").max(32) });

/** The shortest password a dashboard user may have (also the CLI's rule). */
export const MIN_PASSWORD_LENGTH = 10;

const newPassword = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(200, "must be at most 200 characters");

/** Changing one's own password: the current one, then the new one. */
export const changePasswordBody = z.object({ currentPassword: z.string().min(1, "enter your current password").max(200), newPassword });

/** Accepting an invite: the invitee's own password. */
export const acceptInviteBody = z.object({ password: newPassword });
