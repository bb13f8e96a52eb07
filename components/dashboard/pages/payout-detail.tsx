"use client";
// One payout, live; in the sandbox, buttons that drive it to its outcome (the API's simulate
// use case: the same transitions as a provider's notice, 3.3).
import Link from "next/link";
import type { z } from "zod";
import { simulatePayoutAction } from "@/app/dashboard/actions";
import { useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
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
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/dashboard/payouts" className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
          Payouts
        </Link>{" "}
        / <span className="font-mono text-xs">{p.id}</span>
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <Money amount={p.amount} currency={p.currency} />
            <span data-testid="payout-status">
              <StatusBadge status={p.status} />
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{p.id}</span> <CopyButton value={p.id} label="Copy id" />
          </span>
        }
      />
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
  const simulate = useDashboardMutation(simulatePayoutAction);
  const result = simulate.data;
  return (
    <Card title="Sandbox simulation" id="simulate-payout">
      <p className="mb-3 text-sm text-slate-600">Drive this test payout to its outcome (reference 3.3). Only a processing payout moves; a failure gives a real debit back.</p>
      <div className="flex flex-wrap gap-2">
        {SIMULATIONS.map((s) => (
          <Button
            key={s.action}
            variant="secondary"
            size="sm"
            disabled={simulate.isPending || status !== "processing"}
            busy={simulate.isPending && simulate.variables?.[1] === s.action}
            onClick={() => simulate.mutate([id, s.action])}
          >
            {s.label}
          </Button>
        ))}
      </div>
      <div className="mt-3">
        <FormError message={result && !result.ok ? result.error.message : simulate.error?.message} />
      </div>
    </Card>
  );
}
