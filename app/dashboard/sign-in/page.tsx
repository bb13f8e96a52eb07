import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentDashboard } from "@/server/dashboard";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in · Latam Payments" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentDashboard()) redirect("/dashboard");
  // After accepting an invite: the address the invite was for.
  const email = (await searchParams).email;
  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sign in to your dashboard</h1>
        <p className="mt-1 text-sm text-slate-600">Accounts are created by your operator.</p>
        <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <SignInForm defaultEmail={typeof email === "string" ? email.slice(0, 254) : ""} />
        </div>
      </div>
    </main>
  );
}
