"use server";
// Signing in and out, and the environment the dashboard shows (a cookie). Server actions carry
// Next's CSRF defence (POST only, Origin must match the host).
import { cookies } from "next/headers";
import { AuthError } from "next-auth";
import { signIn, signOut, SESSION_MAX_AGE_S } from "@/auth";
import { config } from "@/lib/platform/config";
import { ENV_COOKIE } from "@/server/dashboard";
import { dashboardAction, oneOf } from "@/server/dashboard-action";

export type SignInState = { error?: string; email?: string; needCode?: boolean };

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const code = String(form.get("code") ?? "").trim();
  if (!email || !password) return { error: "Enter your email and password.", email };
  try {
    await signIn("credentials", { email, password, ...(code ? { code } : {}), redirectTo: "/dashboard" });
  } catch (err) {
    if (err instanceof AuthError) {
      const reason = (err as AuthError & { code?: string }).code;
      if (reason === "code_required") return { email, needCode: true };
      if (reason === "code_invalid") return { email, needCode: true, error: "That code is not valid or was used already. Enter the current code from your app, or a recovery code." };
      return { email, error: reason === "throttled" ? "Too many failed attempts. Wait 15 minutes and try again." : "Incorrect email or password." };
    }
    throw err; // the redirect after a successful sign-in
  }
  return {};
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/dashboard/sign-in" });
}

export const setEnvironmentAction = dashboardAction(
  "read",
  { args: (environment: "sandbox" | "production") => ({ input: environment }), input: oneOf("environment", ["sandbox", "production"], "Unknown environment.") },
  async ({ input: environment }) => {
    (await cookies()).set(ENV_COOKIE, environment, { httpOnly: true, sameSite: "lax", path: "/", secure: config().APP_URL.startsWith("https://"), maxAge: SESSION_MAX_AGE_S });
    return { environment };
  },
);
