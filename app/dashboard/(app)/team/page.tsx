import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listTeam } from "@/lib/accounts/list-team";
import { TeamView } from "@/components/dashboard/pages/team";
import { PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/table";

export const metadata: Metadata = { title: "Team · Dashboard" };

export default async function TeamPage() {
  const d = await requireDashboard();
  if (!d.can("manageTeam")) {
    return (
      <>
        <PageHeader title="Team" />
        <EmptyState title="Only owners manage the team" />
      </>
    );
  }
  return <TeamView initial={await listTeam(d.ctx)} me={d.user.id} />;
}
