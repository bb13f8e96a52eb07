"use client";
import Link from "next/link";
import { AlertTriangle } from "lucide-react";
import type { Overview } from "@/lib/dashboard/queries";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { Money, formatDate, formatDateTime } from "@/components/ui/money";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { SuccessRateChart, VolumeChart } from "@/components/dashboard/charts";
import { PaymentRows } from "@/components/dashboard/payment-rows";

export function OverviewView({ environment, initial }: { environment: string; initial: Overview }) {
  const { data } = useLiveData(environment, "overview", {}, initial, 3_000);
  const { balance, series, recent } = data;
  const b = balance.balance;
  return (
    <>
      <PageHeader title="Overview" description={`Balances in USD, ${environment}. Tier ${balance.tier}, rolling reserve ${balance.rollingReservePct}%.`} />
      {balance.ledgerWarnings.length > 0 ? (
        <div role="alert" className="mb-6 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle aria-hidden className="size-4" /> Ledger warnings
          </p>
          <ul className="mt-2 list-disc pl-6">
            {balance.ledgerWarnings.map((w) => (
              <li key={w.code + w.message}>{w.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <dl aria-label="Balances" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label="Available" value={<Money amount={b.available} currency="USD" />} hint="Ready to pay out" />
        <Stat label="Pending" value={<Money amount={b.pending} currency="USD" />} hint="Settles on the rail's schedule" />
        <Stat label="Frozen" value={<Money amount={b.frozen} currency="USD" />} hint="Held by open refunds and chargebacks" />
        <Stat label="Reserve" value={<Money amount={b.reserve} currency="USD" />} hint="Rolling reserve, released on schedule" />
      </dl>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card title="Volume, last 30 days" id="volume">
          <VolumeChart series={series} />
        </Card>
        <Card title="Success rate, last 30 days" id="success">
          <SuccessRateChart series={series} />
        </Card>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <Card title="Recent payments" id="recent" className="lg:col-span-2" actions={<Link className="text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href="/dashboard/payments">All payments</Link>}>
          {recent.length === 0 ? <EmptyState title="No payments yet">Create one through the API; it appears here within seconds.</EmptyState> : <PaymentRows payments={recent} caption="Recent payments" compact />}
        </Card>
        <Card title="Next reserve releases" id="reserve">
          {balance.reserveSchedule.length === 0 ? (
            <EmptyState title="Nothing held in reserve" />
          ) : (
            <Table caption="Next reserve releases">
              <thead>
                <tr>
                  <Th>Release</Th>
                  <Th className="text-right">Amount</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {balance.reserveSchedule.map((r) => (
                  <tr key={r.releaseAt}>
                    <Td>{formatDate(r.releaseAt)}</Td>
                    <Td className="text-right">
                      <Money amount={r.amount} currency="USD" />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <p className="mt-4 text-xs text-slate-600">
            Fees, last 90 days: <Money amount={balance.feeSummary.totalFees} currency="USD" /> on <Money amount={balance.feeSummary.grossVolume} currency="USD" />.
          </p>
        </Card>
      </div>
    </>
  );
}
