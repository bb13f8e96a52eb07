// Shared set-up of the dashboard accounts API tests (dashboard-accounts-*.test.ts; not a test file
// itself): dashboard users, TOTP enrolment and codes, sign-in through Auth.js' credentials
// callback, server actions called over HTTP, session checks, and the security log's event types.
import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { API_URL, newMerchant } from "./helpers.ts";
import { createDashboardUser } from "@/lib/accounts/users";
import { startTotpEnrollment } from "@/lib/accounts/start-totp-enrollment";
import { confirmTotpEnrollment } from "@/lib/accounts/confirm-totp-enrollment";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export const PASSWORD = "correct horse battery staple";
export const rand = () => Math.random().toString(36).slice(2, 10);

export async function userOf(role: "owner" | "developer" | "viewer", merchantId?: string) {
  const m = merchantId ? null : await newMerchant();
  const email = `${role}-${rand()}@example.test`;
  const u = await createDashboardUser({ merchantId: merchantId ?? m!.merchantId, email, password: PASSWORD, role });
  return { m, merchantId: u.merchantId, email, id: u.id };
}

export const codeAt = (secret: string, ms: number) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** A user with two-factor sign-in on; the enrollment used the current step, so sign-ins use the next. */
export async function enrolled(role: "owner" | "developer" = "owner") {
  const u = await userOf(role);
  const e = await startTotpEnrollment(u.id);
  assert.equal(e.enabled, false);
  const secret = (e as { secret: string }).secret;
  const { recoveryCodes } = await confirmTotpEnrollment(u.id, codeAt(secret, Date.now()), { actor: u.email });
  assert.equal(recoveryCodes.length, 10);
  return { ...u, secret, recoveryCodes };
}

export const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

export async function attempt(email: string, password: string, code?: string, base = API_URL) {
  const c = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const form = new URLSearchParams({ email, password, csrfToken, callbackUrl: `${base}/dashboard`, ...(code === undefined ? {} : { code }) });
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(c).join("; ") },
    body: form,
  });
  const session = res.headers.getSetCookie().find((s) => /session-token=/.test(s));
  return { status: res.status, location: res.headers.get("location") ?? "", cookie: session?.split(";")[0] };
}

export async function actionId(cookie: string, page: string, name: string, base = API_URL): Promise<string> {
  const html = await (await fetch(`${base}${page}`, { headers: { cookie } })).text();
  for (const src of [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!)) {
    const js = await (await fetch(`${base}${src}`)).text();
    const m = new RegExp(`"([0-9a-f]{40,})"[^"]{0,200}"${name}"`).exec(js);
    if (m) return m[1]!;
  }
  throw new Error(`server action ${name} not found in the chunks of ${page}`);
}

export async function callAction(cookie: string, page: string, id: string, args: unknown[], base = API_URL) {
  const res = await fetch(`${base}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "next-action": id, origin: base, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify(args),
  });
  // A session the action let continue under a new version comes back as a new cookie.
  const renewed = res.headers.getSetCookie().find((c) => /session-token=/.test(c))?.split(";")[0];
  return { status: res.status, text: await res.text(), cookie: renewed && !/session-token=$/.test(renewed) ? renewed : undefined };
}

/** 200 while the session serves, 401 once it has ended (the data route answers, never redirects). */
export const sessionStatus = async (cookie: string, base = API_URL) => (await fetch(`${base}/dashboard/api/payments`, { headers: { cookie } })).status;

export async function eventTypes(merchantId: string) {
  const page = await listSecurityEvents({ merchant: { id: merchantId } as AuthContext["merchant"] }, { limit: 100 });
  return page.data.map((e) => e.type);
}

export function ctxOf(merchantId: string, email: string): AuthContext {
  return { merchant: { id: merchantId } as AuthContext["merchant"], shop: null, environment: "sandbox", keyKind: "secret", keyPairId: `dashboard:x`, keyId: `dashboard:${email}`, via: "dashboard", ip: "203.0.113.9", actor: { kind: "user", userId: "x", email, role: "owner" } };
}

export async function refusedWith(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (err: unknown) => err instanceof AppError && err.code === code);
}
