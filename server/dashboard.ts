// The dashboard's side of the gate: reads the Auth.js session and the environment cookie (web
// tier, so it lives here and not in lib/) and hands them to the one gate (lib/platform/auth/gate.ts),
// which builds the same AuthContext the API's use cases take and checks the policy table.
// Pages, server actions and the dashboard's data routes all start here.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth, updateSession } from "@/auth";
import { signSessionGrant, type SessionState } from "@/lib/accounts/session-grant";
import { AppError } from "@/lib/platform/errors";
import { gate, withShopOf } from "@/lib/platform/auth/gate";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";
import { db } from "@/lib/platform/db";
import { allows, type Permission } from "@/lib/platform/auth/policy";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { clientIp } from "@/lib/platform/http/client-ip";
import type { DashboardRole, Environment } from "@/lib/generated/prisma/enums";

export const ENV_COOKIE = "lp_dashboard_env";

export type Dashboard = {
  user: { id: string; email: string; role: DashboardRole };
  merchant: AuthContext["merchant"];
  environment: Environment;
  /** What the API's use cases take. Merchant-wide (no shop): the dashboard sees every shop. */
  ctx: AuthContext;
  /** For hiding only: the same answer the gate would give in this environment. */
  can: (p: Permission) => boolean;
  /** Two-factor sign-in: whether the user has it on, and whether their role must (production). */
  twoFactor: { enabled: boolean; required: boolean };
  /** This session: the user's version it runs under, and whether its second factor was given. */
  session: SessionState;
};

/** Where a user who must enroll in two-factor sign-in is sent; the gate refuses everything else until then. */
export const TWO_FACTOR_PATH = "/dashboard/two-factor";

export async function currentEnvironment(): Promise<Environment> {
  const v = (await cookies()).get(ENV_COOKIE)?.value;
  return v === "production" ? "production" : "sandbox";
}

/**
 * The state a server action moved this session to, for the rest of the same request: the page
 * Next renders in the action's answer still sees the request's old cookie through auth(), which
 * would read as an ended session (and lose what the action answered, such as recovery codes).
 * Keyed by the request's headers object, so it lives exactly as long as the request.
 */
const continued = new WeakMap<object, { userId: string; state: SessionState }>();

async function sessionGate(permission: Permission): Promise<Dashboard> {
  // What auth.ts' session callback hands over.
  const session = (await auth()) as { user?: { id?: string }; sessionVersion?: number; secondFactor?: boolean } | null;
  const moved = continued.get(await headers());
  const state: SessionState = moved && moved.userId === session?.user?.id ? moved.state : { version: session?.sessionVersion ?? 0, secondFactor: session?.secondFactor === true };
  const ctx = await gate({ kind: "dashboard", userId: session?.user?.id, sessionVersion: state.version, secondFactor: state.secondFactor, environment: await currentEnvironment() }, permission);
  if (ctx.actor.kind !== "user") throw new AppError("missing_credentials", "Your session has ended. Sign in again.");
  const { userId, email, role, twoFactorPending } = ctx.actor;
  // The address, for the security log (the same trusted-proxy rules as the API's limits).
  ctx.ip = clientIp(await headers()) ?? undefined;
  const required = twoFactorRequired(role);
  return { user: { id: userId, email, role }, merchant: ctx.merchant, environment: ctx.environment, ctx, can: (p) => !twoFactorPending && allows(ctx, p), twoFactor: { required, enabled: required ? !twoFactorPending : await twoFactorEnabled(userId) }, session: state };
}

/**
 * After a change that bumped the signed-in user's session version (every other session ends),
 * this session continues under the new version (server actions only: it rewrites the cookie).
 */
export async function continueSession(d: Dashboard, state: SessionState): Promise<void> {
  await updateSession({ grant: signSessionGrant(d.user.id, state) } as never);
  continued.set(await headers(), { userId: d.user.id, state });
}

/**
 * The signed-in user's dashboard, or null (no session, user removed, merchant suspended). A user
 * who must still enroll in two-factor sign-in gets it too (enrolling is what they may do).
 */
export async function currentDashboard(): Promise<Dashboard | null> {
  try {
    return await sessionGate("enrollTwoFactor");
  } catch (err) {
    if (err instanceof AppError && err.code === "missing_credentials") return null;
    throw err;
  }
}

/** For pages: the dashboard, or a redirect to sign-in. */
export async function requireDashboard(): Promise<Dashboard> {
  const d = await currentDashboard();
  if (!d) redirect("/dashboard/sign-in");
  if (d.twoFactor.required && !d.twoFactor.enabled) redirect(TWO_FACTOR_PATH);
  return d;
}

/**
 * For actions and data routes: the gate with the permission the entry point names; an AppError
 * (never a redirect) when signed out or refused.
 */
export async function dashboardOrThrow(permission: Permission = "read"): Promise<Dashboard> {
  return sessionGate(permission);
}

/** The context narrowed to one of the merchant's shops (`shopId` omitted: the first active one). */
export async function withShop(d: Dashboard, shopId?: string): Promise<AuthContext> {
  return withShopOf(d.ctx, shopId);
}

async function twoFactorEnabled(userId: string): Promise<boolean> {
  return (await db().dashboardUser.findUnique({ where: { id: userId }, select: { totpEnabledAt: true } }))?.totpEnabledAt != null;
}
