"use client";
import { useTimes } from "@/components/ui/time-zone";
import Link from "next/link";
import { AlertTriangle } from "lucide-react";
import type { Overview } from "@/lib/dashboard/queries";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { Money } from "@/components/ui/money";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { SuccessRateChart, VolumeChart } from "@/components/dashboard/charts";
import { PaymentRows } from "@/components/dashboard/payment-rows";
import { RESERVE_HOLD_DAYS } from "@/lib/pricing/fees";


/**
 * What the available balance means. It goes below zero when refunds and chargebacks take more
 * than the payment's own unsettled money: a full refund returns what the buyer paid, fees and
 * reserve included, and a lost chargeback also costs its fee (lib/ledger/recipes.ts, freeze and
 * chargebackLost). Then there is nothing to pay out, and the next settlements fill the gap.
 */
function availableHint(available: number) {
  if (available < 0) {
    return (
      <span data-testid="available-negative" className="text-red-800">
        Refunds and chargebacks, with their fees, took more than your available pay-ins. New pay-ins cover it first; you can pay out again once it is above zero.
      </span>
    );
  }
  return available > 0 ? "Ready to pay out" : "Nothing to pay out yet";
}

export function OverviewView({ environment, initial }: { environment: string; initial: Overview }) {
  // A release day as "22 Feb 2027" (no comma to dangle at the end of a narrow cell), the merchant's day.
  const { formatDay } = useTimes();
  const { data } = useLiveData(environment, "overview", {}, initial, 3_000);
  const { balance, series, outcomes, recent } = data;
  const b = balance.balance;
  const reserve = balance.rollingReservePct > 0 ? `${balance.rollingReservePct}% of each payment is held as a reserve for ${RESERVE_HOLD_DAYS} days.` : "No reserve is held on your payments.";
  return (
    <>
      <PageHeader title="Overview" description={`${environment === "sandbox" ? "Test money only. " : ""}Balances in USD. ${reserve}`} />
      {balance.ledgerWarnings.length > 0 ? (
        <div role="alert" className="mb-6 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle aria-hidden className="size-4" /> Our balance check found a mismatch
          </p>
          <ul className="mt-2 list-disc pl-6">
            {balance.ledgerWarnings.map((w) => (
              <li key={w.code + w.message}>{w.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {/* Grid children get min-w-0: a grid item is otherwise as wide as its widest content (a
          table, a chart), which pushes the page sideways on tablets instead of letting the
          table scroll inside its card. */}
      <dl aria-label="Balances" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4 [&>*]:min-w-0">
        <Stat label="Available" value={<Money amount={b.available} currency="USD" className={b.available < 0 ? "text-red-800" : undefined} />} hint={availableHint(b.available)} />
        <Stat label="Pending" value={<Money amount={b.pending} currency="USD" />} hint="Paid, becomes available when it settles" />
        <Stat label="Frozen" value={<Money amount={b.frozen} currency="USD" />} hint="Held while refunds and chargebacks are open" />
        <Stat label="Reserve" value={<Money amount={b.reserve} currency="USD" />} hint={`Held for ${RESERVE_HOLD_DAYS} days, then available`} />
      </dl>
      <div className="mt-6 grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <Card title="Volume, last 30 days" id="volume">
          <VolumeChart series={series} />
        </Card>
        <Card title="Success rate, last 30 days" id="success">
          <SuccessRateChart series={series} outcomes={outcomes} />
        </Card>
      </div>
      <div className="mt-6 grid gap-6 lg:grid-cols-3 [&>*]:min-w-0">
        <Card title="Recent payments" id="recent" className="lg:col-span-2" actions={<Link className="text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href="/dashboard/payments">All payments</Link>}>
          {recent.length === 0 ? <EmptyState title="No payments yet">Payments appear here within seconds of being created.</EmptyState> : <PaymentRows payments={recent} caption="Recent payments" compact />}
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
                    <Td>{formatDay(r.releaseAt)}</Td>
                    <Td className="text-right">
                      <Money amount={r.amount} currency="USD" />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <p className="mt-4 text-xs text-slate-600">
            Fees in the last 90 days: <Money amount={balance.feeSummary.totalFees} currency="USD" /> on <Money amount={balance.feeSummary.grossVolume} currency="USD" /> of payments.
          </p>
        </Card>
      </div>
    </>
  );
}
