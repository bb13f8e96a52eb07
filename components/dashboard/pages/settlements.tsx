"use client";
// Settlement batches: what each swept from the available balance to the settlement destination,
// its receipt (PDF, once the job rendered it), and in the sandbox "Run settlement now" and the
// paid/failed outcomes a custody provider would report.
import type { z } from "zod";
import { runSettlementAction, simulateSettlementAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Money, formatDate, formatDateTime } from "@/components/ui/money";
import type { settlement } from "@/lib/settlements/schema";

type Settlement = z.infer<typeof settlement>;
type List = { data: Settlement[] };
type Destination = { asset: string; network: string; address: string } | null;

export function SettlementsView({ environment, initial, destination, canRun, canSimulate }: { environment: string; initial: List; destination: Destination; canRun: boolean; canSimulate: boolean }) {
  const { data } = useLiveData<List>(environment, "settlements", { limit: 20 }, initial, 3_000);
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader title="Settlements" description="Daily batches that send your available balance, less the withdrawal fee, to your settlement destination." />
      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card title="Settlement destination" id="settlement-destination">
          {destination ? (
            <p className="text-sm">
              {destination.asset} on {destination.network}: <span className="break-all font-mono text-xs">{destination.address}</span>
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              None set: batches are skipped until you set one with <code>PUT /api/v1/me/settlement-destination</code>.
            </p>
          )}
        </Card>
        {sandbox && canRun ? <RunCard /> : null}
      </div>
      <Card title="Batches" id="settlements-list">
        {data.data.length === 0 ? (
          <EmptyState title="No settlements yet">A batch closes once a day when the available balance reaches 50 USD and a destination is set.</EmptyState>
        ) : (
          <Table caption="Settlement batches, newest first">
            <thead>
              <tr>
                <Th>Period</Th>
                <Th className="text-right">Net (gross − fee)</Th>
                <Th>Status</Th>
                <Th>Receipt</Th>
                {sandbox && canSimulate ? <Th>Sandbox</Th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.data.map((s) => (
                <tr key={s.id} data-testid="settlement-row">
                  <Td>
                    <span className="block whitespace-normal">
                      {formatDate(s.periodFrom)} – {formatDate(s.periodTo)}
                    </span>
                    <span className="break-all font-mono text-xs text-slate-600">{s.id}</span>
                  </Td>
                  <Td className="text-right">
                    <Money className="font-medium" amount={s.netUsd} currency="USD" />
                    <span className="block text-xs text-slate-600">
                      <Money amount={s.grossUsd} currency="USD" /> − <Money amount={s.feeUsd} currency="USD" />
                    </span>
                  </Td>
                  <Td>
                    <StatusBadge status={s.status} />
                    {s.paidAt ? <span className="block text-xs text-slate-600">{formatDateTime(s.paidAt)}</span> : null}
                  </Td>
                  <Td>
                    {s.receiptReady ? (
                      <a className="text-indigo-700 underline underline-offset-2" href={`/dashboard/api/settlements/${s.id}/receipt`} download>
                        Download receipt
                      </a>
                    ) : (
                      <span className="text-xs text-slate-600">Preparing…</span>
                    )}
                  </Td>
                  {sandbox && canSimulate ? (
                    <Td>
                      <SimulateSettlement id={s.id} closed={s.status === "closed"} />
                    </Td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}

function RunCard() {
  const run = useOnceMutation(runSettlementAction);
  const error = actionError(run.data, run.error);
  const done = run.data?.ok ? run.data.data : null;
  return (
    <Card title="Run settlement now (sandbox)" id="settlement-run">
      <p className="mb-3 text-sm text-slate-600">Close a batch of the available balance now, as the daily job would.</p>
      <Button busy={run.isPending} disabled={run.isPending} onClick={() => run.mutate([])}>
        Run settlement now
      </Button>
      {done ? (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {done.settlement ? `Closed ${done.settlement.id}: ${done.settlement.netUsd} USD net.` : done.skipped === "below_minimum" ? "Nothing to settle: the available balance is under 50 USD." : "Nothing to settle: set a settlement destination first."}
        </p>
      ) : null}
      <div className="mt-2">
        <FormError message={error?.message} />
      </div>
    </Card>
  );
}

function SimulateSettlement({ id, closed }: { id: string; closed: boolean }) {
  const simulate = useOnceMutation(simulateSettlementAction);
  if (!closed) return <span className="text-xs text-slate-600">—</span>;
  return (
    <SimulateButtons
      simulations={[
        { action: "paid", label: "Simulate paid", enabled: true },
        { action: "failed", label: "Simulate failed", enabled: true },
      ]}
      busy={simulate.isPending}
      pendingAction={simulate.variables?.[1]}
      error={actionError(simulate.data, simulate.error)?.message}
      onSimulate={(action) => simulate.mutate([id, action as "paid" | "failed"])}
    />
  );
}
