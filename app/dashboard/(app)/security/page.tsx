import type { Metadata } from "next";
import Link from "next/link";
import { requireDashboard } from "@/server/dashboard";
import { listSecurityEvents } from "@/lib/accounts/list-security-events";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { securityDetailId, securityDetailWords, securityEventWord } from "@/components/dashboard/security-words";
import { IdDetail } from "@/components/ui/id-detail";
import { Term } from "@/components/ui/term";

export const metadata: Metadata = { title: "Security · Dashboard" };

export default async function SecurityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const twoFactor = (
    <Card title="Your sign-in">
      <p className="text-sm text-slate-700">
        Two-factor sign-in: {d.twoFactor.enabled ? "on." : d.twoFactor.required ? "required for your role, not set up yet." : "off."}{" "}
        <Link href="/dashboard/two-factor" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
          {d.twoFactor.enabled ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}
        </Link>
      </p>
      <p className="mt-2 text-sm text-slate-700">
        <Link href="/dashboard/password" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
          Change your password
        </Link>
      </p>
    </Card>
  );
  if (!d.can("readSecurityLog")) {
    return (
      <>
        <PageHeader title="Security" />
        <div className="space-y-6">{twoFactor}</div>
      </>
    );
  }
  const raw = await searchParams;
  const offset = typeof raw.offset === "string" ? raw.offset : undefined;
  const page = await listSecurityEvents(d.ctx, { offset });
  return (
    <>
      <PageHeader title="Security" description="Sign-ins, two-factor changes, key rolls, webhook secrets and team changes of this merchant, newest first." />
      <div className="space-y-6">
        {twoFactor}
        <Card title="Security log">
          {page.data.length === 0 ? (
            <EmptyState title="No security events yet" />
          ) : (
            <Table caption="Security log, newest first">
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Event</Th>
                  <Th>Actor</Th>
                  <Th>Address</Th>
                  <Th>Details</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {page.data.map((e) => (
                  <tr key={e.id} data-testid="security-event" data-type={e.type}>
                    <Td className="text-slate-600">{formatDateTime(e.createdAt, d.merchant.timeZone)}</Td>
                    <Td>
                      <Term tech={e.type}>{securityEventWord(e.type)}</Term>
                    </Td>
                    <Td>{e.actor}</Td>
                    <Td className="font-mono text-xs">{e.ip ?? "—"}</Td>
                    <Td className="text-xs text-slate-600">
                      {securityDetailWords(e.type, e.details)}
                      {securityDetailId(e.details) ? <IdDetail id={securityDetailId(e.details)!} /> : null}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <Pagination pagination={page.pagination} href={(o) => `/dashboard/security?offset=${o}`} label="Security log pages" />
        </Card>
      </div>
    </>
  );
}
