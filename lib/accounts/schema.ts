// Shapes of the dashboard's account forms (team invites and role changes, two-factor codes).
import { z } from "zod";
import { ROLES } from "@/lib/auth/policy";

export const inviteBody = z.object({
  email: z.string().trim().toLowerCase().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address"),
  role: z.enum(ROLES),
});

export const roleBody = z.object({ role: z.enum(ROLES) });

export const codeBody = z.object({ code: z.string().trim().min(6, "enter the code from your app").max(32) });
