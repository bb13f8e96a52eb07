// Who is acting in the dashboard, for which merchant, in which environment. Pages, server actions
// and the dashboard's data routes all start here; the AuthContext it builds is what the API's
// use cases take, so the dashboard runs the same lib/ code as the API, scoped the same way.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { can, type Permission } from "@/lib/dashboard/roles";
import type { AuthContext } from "@/lib/auth/authenticate";
import { clientIp } from "@/lib/http/client-ip";
import { twoFactorRequired } from "@/lib/accounts/two-factor-policy";
import type { DashboardRole, Environment } from "@/lib/generated/prisma/enums";

export const ENV_COOKIE = "lp_dashboard_env";

export type Dashboard = {
  user: { id: string; email: string; role: DashboardRole };
  merchant: AuthContext["merchant"];
  environment: Environment;
  /** What the API's use cases take. Merchant-wide (no shop): the dashboard sees every shop. */
  ctx: AuthContext;
  can: (p: Permission) => boolean;
  /** Two-factor sign-in: whether the user has it on, and whether their role must (production). */
  twoFactor: { enabled: boolean; required: boolean };
};

/** Where a user who must enroll in two-factor sign-in is sent; nothing else works until then. */
export const TWO_FACTOR_PATH = "/dashboard/two-factor";

export async function currentEnvironment(): Promise<Environment> {
  const v = (await cookies()).get(ENV_COOKIE)?.value;
  return v === "production" ? "production" : "sandbox";
}

/** The signed-in user's dashboard, or null (no session, user removed, merchant suspended). */
export async function currentDashboard(): Promise<Dashboard | null> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return null;
  const user = await db().dashboardUser.findUnique({
    where: { id: userId },
    select: { id: true, email: true, role: true, totpEnabledAt: true, merchant: { select: { id: true, name: true, email: true, industry: true, tier: true, trustScore: true, status: true } } },
  });
  if (!user || user.merchant.status !== "active") return null;
  const environment = await currentEnvironment();
  const ctx: AuthContext = {
    merchant: user.merchant,
    shop: null,
    environment,
    keyKind: "secret",
    keyPairId: `dashboard:${user.id}`,
    keyId: `dashboard:${user.email}`,
    via: "dashboard",
    ip: clientIp(await headers()) ?? undefined,
  };
  return { user: { id: user.id, email: user.email, role: user.role }, merchant: user.merchant, environment, ctx, can: (p) => can(user.role, p), twoFactor: { enabled: user.totpEnabledAt !== null, required: twoFactorRequired(user.role) } };
}

/** For pages: the dashboard, or a redirect to sign-in. */
export async function requireDashboard(): Promise<Dashboard> {
  const d = await currentDashboard();
  if (!d) redirect("/dashboard/sign-in");
  if (d.twoFactor.required && !d.twoFactor.enabled) redirect(TWO_FACTOR_PATH);
  return d;
}

/** For actions and data routes: the dashboard, or an AppError (never a redirect). */
export async function dashboardOrThrow(permission?: Permission): Promise<Dashboard> {
  const d = await currentDashboard();
  if (!d) throw new AppError("missing_credentials", "Your session has ended. Sign in again.");
  if (d.twoFactor.required && !d.twoFactor.enabled) throw new AppError("two_factor_required", "Set up two-factor sign-in first.");
  if (permission && !d.can(permission)) throw new AppError("forbidden", `Your role (${d.user.role}) cannot do this.`);
  return d;
}

/**
 * The context narrowed to one of the merchant's shops, for use cases that need a shop (the
 * dashboard's own context is merchant-wide). `shopId` omitted: the merchant's first active shop.
 */
export async function withShop(d: Dashboard, shopId?: string): Promise<AuthContext> {
  const shop = await db().shop.findFirst({
    where: { merchantId: d.merchant.id, status: "active", ...(shopId ? { id: shopId } : {}) },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, status: true },
  });
  if (!shop) throw new AppError("shop_not_found", shopId ? `No shop ${shopId}.` : "The merchant has no active shop.", { param: "shopId" });
  return { ...d.ctx, shop };
}
