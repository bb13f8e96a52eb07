"use client";
// One payout, live; in the sandbox, buttons that drive it to its outcome (the API's simulate
// use case: the same transitions as a provider's notice).
import type { z } from "zod";
import { simulatePayoutAction } from "@/server/actions/payouts";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateCard } from "@/components/dashboard/kit/simulate";
import { CopyButton } from "@/components/ui/copy-button";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money, formatMoney } from "@/components/ui/money";
import { countryName, providerName } from "@/components/dashboard/payment-labels";
import { failureWord, methodName } from "@/components/dashboard/plain-words";
import { Term } from "@/components/ui/term";
import { useTimes } from "@/components/ui/time-zone";
import type { payout } from "@/lib/payouts/schema";

export type Payout = z.infer<typeof payout>;

const RAIL_LABELS: Record<string, string> = { spei: "SPEI", pix: "PIX", bank_transfer: "Bank transfer" };
const TRACKING_LABELS: Record<string, string> = { spei: "Tracking key (clave de rastreo)", pix: "End-to-end ID", bank_transfer: "Bank reference" };

const SIMULATIONS = [
  { action: "completed", label: "Simulate completed" },
  { action: "failed", label: "Simulate failed" },
  { action: "rejected", label: "Simulate rejected" },
  { action: "returned", label: "Simulate returned" },
] as const;

export function PayoutDetailView({ environment, id, initial, canMoveMoney }: { environment: string; id: string; initial: { payout: Payout }; canMoveMoney: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "payout", { id }, initial, 3_000);
  const p = data.payout;
  return (
    <>
      <MoneyRecordHeader href="/dashboard/payouts" label="Payouts" current={`Payout of ${formatMoney(p.amount, p.currency)}`} id={p.id} amount={p.amount} currency={p.currency} status={p.status} statusOf="payout" statusTestId="payout-status" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Details" id="payout-details">
            <DescriptionList
              items={[
                ["Amount", <Money key="a" amount={p.amount} currency={p.currency} />],
                ["Method", <Term key="m" tech={p.methodId}>{methodName(p.methodName)}</Term>],
                ["Rail", RAIL_LABELS[p.method] ?? p.method],
                ["Country", countryName(p.country)],
                ["Recipient", `${p.recipient.name} · account ••••${p.recipient.accountLast4}`],
                ["Provider", providerName(p.provider)],
                // The reference the beneficiary's bank knows the transfer by: what a merchant quotes
                // when a beneficiary asks where the money is (SPEI's clave de rastreo, PIX's end-to-end id).
                [
                  TRACKING_LABELS[p.method] ?? "Bank reference",
                  p.providerRef ? (
                    <span key="t" className="flex flex-wrap items-center gap-2" data-testid="payout-tracking-key">
                      <span className="break-all font-mono">{p.providerRef}</span>
                      <CopyButton value={p.providerRef} label="Copy" />
                    </span>
                  ) : p.status === "processing" ? (
                    "Given by the bank once the payout is sent"
                  ) : null,
                ],
                ["Failure reason", p.failureReason ? <Term key="f" tech={p.failureReason}>{failureWord(p.failureReason)}</Term> : null],
                ["Created", formatDateTime(p.timestamps.created)],
                ["Completed", formatDateTime(p.timestamps.completed)],
                ["Failed", formatDateTime(p.timestamps.failed)],
              ]}
            />
          </Card>
        </div>
        <div className="space-y-6">
          {canMoveMoney && environment === "sandbox" ? (
            <SimulateCard
              id="simulate-payout"
              target={p.id}
              action={simulatePayoutAction}
              description="Drive this test payout to its outcome, as the bank would. Only a processing payout moves; a failure gives the debit back."
              outcomes={SIMULATIONS.map((s) => ({ action: s.action, label: s.label, enabled: p.status === "processing" }))}
            />
          ) : null}
        </div>
      </div>
    </>
  );
}
