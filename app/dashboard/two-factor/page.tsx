import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentDashboard } from "@/server/dashboard";
import { startTotpEnrollment } from "@/lib/accounts/start-totp-enrollment";
import { qrDataUrl } from "@/lib/checkout/codes";
import { TwoFactorView } from "@/components/dashboard/pages/two-factor";
import { signOutAction } from "@/server/actions/session";

export const metadata: Metadata = { title: "Two-factor sign-in · Dashboard" };
export const dynamic = "force-dynamic";

// Outside the (app) layout on purpose: a user who must enroll is sent here by every other page,
// so this page cannot depend on the layout that sends them.
export default async function TwoFactorPage() {
  const d = await currentDashboard();
  if (!d) redirect("/dashboard/sign-in");
  const enrollment = await startTotpEnrollment(d.user.id);
  const mustEnroll = d.twoFactor.required && !d.twoFactor.enabled;
  return (
    <main id="main" className="flex min-h-screen justify-center px-4 py-12">
      <div className="w-full max-w-xl">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Two-factor sign-in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {d.user.email} · {d.user.role}
        </p>
        {mustEnroll ? (
          <p role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            Your role must sign in with a second factor in production. Set it up to continue.
          </p>
        ) : null}
        <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          {enrollment.enabled ? (
            <TwoFactorView state="enabled" canDisable={!d.twoFactor.required} />
          ) : (
            <TwoFactorView state="pending" secret={enrollment.secret} uri={enrollment.uri} qr={await qrDataUrl(enrollment.uri)} />
          )}
        </div>
        <div className="mt-4 flex items-center justify-between gap-3 text-sm">
          {mustEnroll ? (
            <span />
          ) : (
            <Link href="/dashboard" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
              Back to the dashboard
            </Link>
          )}
          {/* A user held here can always leave. */}
          <form action={signOutAction}>
            <button type="submit" className="rounded-md px-2 py-1.5 font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
              Sign out
            </button>
          </form>
        </div>
      </div>
    </main>
  );
}
