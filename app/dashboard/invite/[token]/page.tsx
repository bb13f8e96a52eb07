import type { Metadata } from "next";
import Link from "next/link";
import { findInvite } from "@/lib/accounts/accept-invite";
import { AcceptInviteForm } from "@/components/dashboard/pages/accept-invite";
import { DashboardProviders } from "@/components/dashboard/providers";

// same-origin, as every page of ours (server/page-headers.ts): the token never leaves in a referrer,
// and the form post still carries our Origin (under no-referrer a browser sends `Origin: null`).
export const metadata: Metadata = { title: "Join the team · Latam Payments", referrer: "same-origin" };
export const dynamic = "force-dynamic";

// Outside the (app) layout: the invitee has no session yet; the link's token is the credential.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await findInvite(token);
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Join the team</h1>
        {invite ? (
          <>
            <p className="mt-1 text-sm text-slate-600">
              {invite.merchantName} invited <span className="font-medium text-slate-800">{invite.email}</span> as {invite.role}. Choose your password to finish.
            </p>
            <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
              <DashboardProviders>
                <AcceptInviteForm token={token} email={invite.email} />
              </DashboardProviders>
            </div>
          </>
        ) : (
          <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-700 shadow-sm">
            <p role="alert">This invite link is not valid any more: it was used already, it expired, or a newer link replaced it. Ask an owner of the team for a new one.</p>
            <p className="mt-3">
              <Link href="/dashboard/sign-in" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                Go to sign-in
              </Link>
            </p>
          </div>
        )}
      </div>
    </main>
  );
}
