"use client";
// One payout, live; in the sandbox, buttons that drive it to its outcome (the API's simulate
// use case: the same transitions as a provider's notice, 3.3).
import type { z } from "zod";
import { simulatePayoutAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money, formatDateTime } from "@/components/ui/money";
import type { payout } from "@/lib/payouts/schema";

export type Payout = z.infer<typeof payout>;

const SIMULATIONS = [
  { action: "completed", label: "Simulate completed" },
  { action: "failed", label: "Simulate failed" },
  { action: "rejected", label: "Simulate rejected" },
  { action: "returned", label: "Simulate returned" },
] as const;

export function PayoutDetailView({ environment, id, initial, canMoveMoney }: { environment: string; id: string; initial: { payout: Payout }; canMoveMoney: boolean }) {
  const { data } = useLiveData<{ payout: Payout }>(environment, "payout", { id }, initial, 3_000);
  const p = data.payout;
  return (
    <>
      <MoneyRecordHeader href="/dashboard/payouts" label="Payouts" id={p.id} amount={p.amount} currency={p.currency} status={p.status} statusTestId="payout-status" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Details" id="payout-details">
            <DescriptionList
              items={[
                ["Amount", <Money key="a" amount={p.amount} currency={p.currency} />],
                ["Method", `${p.methodName} (${p.methodId})`],
                ["Rail", p.method],
                ["Country", p.country],
                ["Recipient", `${p.recipient.name} · account ••••${p.recipient.accountLast4}`],
                ["Provider", p.provider],
                ["Provider reference", p.providerRef],
                ["Failure reason", p.failureReason],
                ["Created", formatDateTime(p.timestamps.created)],
                ["Completed", formatDateTime(p.timestamps.completed)],
                ["Failed", formatDateTime(p.timestamps.failed)],
              ]}
            />
          </Card>
        </div>
        <div className="space-y-6">{canMoveMoney && environment === "sandbox" ? <SimulateCard id={p.id} status={p.status} /> : null}</div>
      </div>
    </>
  );
}

function SimulateCard({ id, status }: { id: string; status: string }) {
  const simulate = useOnceMutation(simulatePayoutAction);
  const result = simulate.data;
  return (
    <Card title="Sandbox simulation" id="simulate-payout">
      <p className="mb-3 text-sm text-slate-600">Drive this test payout to its outcome (reference 3.3). Only a processing payout moves; a failure gives a real debit back.</p>
      <SimulateButtons
        simulations={SIMULATIONS.map((s) => ({ action: s.action, label: s.label, enabled: status === "processing" }))}
        busy={simulate.isPending}
        pendingAction={simulate.variables?.[1]}
        error={result && !result.ok ? result.error.message : simulate.error?.message}
        onSimulate={(action) => simulate.mutate([id, action as (typeof SIMULATIONS)[number]["action"]])}
      />
    </Card>
  );
}
