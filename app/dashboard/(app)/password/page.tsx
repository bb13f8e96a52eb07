import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { PageHeader } from "@/components/ui/card";
import { ChangePasswordView } from "@/components/dashboard/pages/change-password";

export const metadata: Metadata = { title: "Password · Dashboard" };

export default async function PasswordPage() {
  const d = await requireDashboard();
  return (
    <>
      <PageHeader title="Your password" description="Changing it signs you out everywhere else; this session stays signed in." />
      <ChangePasswordView email={d.user.email} />
    </>
  );
}
