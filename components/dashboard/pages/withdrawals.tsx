"use client";
// Withdrawals: send available pay-in USD to a crypto address (the settlement destination unless
// another is given), with the tier's fee shown before sending and a confirmation step; the list
// of withdrawals, live; in the sandbox, the custody provider's outcomes as buttons.
import { useState } from "react";
import type { z } from "zod";
import { simulateWithdrawalAction, withdrawAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Money, formatDateTime } from "@/components/ui/money";
import type { withdrawal } from "@/lib/withdrawals/schema";

type Withdrawal = z.infer<typeof withdrawal>;
type List = { data: Withdrawal[] };
type Destination = { asset: string; network: string; address: string } | null;

export function WithdrawalsView(props: { environment: string; initial: List; destination: Destination; availableUsd: number; feeUsd: number; canWithdraw: boolean; canSimulate: boolean }) {
  const { data } = useLiveData<List>(props.environment, "withdrawals", { limit: 20 }, props.initial, 3_000);
  const sandbox = props.environment === "sandbox";
  return (
    <>
      <PageHeader title="Withdrawals" description="Send available USD to a crypto address on demand, as stablecoins. The withdrawal fee is taken on top of the amount." />
      {props.canWithdraw ? <WithdrawCard destination={props.destination} availableUsd={props.availableUsd} feeUsd={props.feeUsd} /> : null}
      <Card title="Withdrawals" id="withdrawals-list" className="mt-6">
        {data.data.length === 0 ? (
          <EmptyState title="No withdrawals yet">Withdrawals you request appear here with their transaction hash once sent.</EmptyState>
        ) : (
          <Table caption="Withdrawals, newest first">
            <thead>
              <tr>
                <Th>Created</Th>
                <Th className="text-right">Amount (fee)</Th>
                <Th>Destination</Th>
                <Th>Status</Th>
                {sandbox && props.canSimulate ? <Th>Sandbox</Th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.data.map((w) => (
                <tr key={w.id} data-testid="withdrawal-row">
                  <Td>
                    <span className="block">{formatDateTime(w.createdAt)}</span>
                    <span className="font-mono text-xs text-slate-600">{w.id}</span>
                  </Td>
                  <Td className="text-right">
                    <Money amount={w.amountUsd} currency="USD" />
                    <span className="block text-xs text-slate-600">
                      + <Money amount={w.feeUsd} currency="USD" /> fee
                    </span>
                  </Td>
                  <Td className="whitespace-normal">
                    {w.destination.asset} on {w.destination.network}
                    <span className="block break-all font-mono text-xs text-slate-600">{w.destination.address}</span>
                  </Td>
                  <Td>
                    <StatusBadge status={w.status} />
                    {w.txHash ? <span className="block break-all font-mono text-xs text-slate-600">{w.txHash.slice(0, 18)}…</span> : null}
                    {w.failureReason ? <span className="block text-xs text-slate-600">{w.failureReason}</span> : null}
                  </Td>
                  {sandbox && props.canSimulate ? (
                    <Td>
                      <SimulateWithdrawal id={w.id} processing={w.status === "processing"} />
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

function WithdrawCard({ destination, availableUsd, feeUsd }: { destination: Destination; availableUsd: number; feeUsd: number }) {
  const withdraw = useOnceMutation(withdrawAction);
  const [review, setReview] = useState<{ amountUsd: string } | null>(null);
  const error = actionError(withdraw.data, withdraw.error);
  const done = withdraw.data?.ok ? withdraw.data.data.withdrawal : null;
  return (
    <Card title="Withdraw" id="withdraw">
      <p className="mb-3 text-sm text-slate-700">
        Available: <Money amount={availableUsd} currency="USD" /> · fee per withdrawal: <Money amount={feeUsd} currency="USD" />
      </p>
      {destination ? (
        <p className="mb-3 text-sm text-slate-700">
          To your settlement destination: {destination.asset} on {destination.network} <span className="break-all font-mono text-xs">{destination.address}</span>
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-700">No settlement destination is set: set one with the API before withdrawing.</p>
      )}
      {review ? (
        <div role="group" aria-label="Review the withdrawal" className="space-y-3">
          <p className="text-sm">
            Send <strong>{review.amountUsd} USD</strong>; <Money amount={feeUsd} currency="USD" /> fee on top leaves your balance with it.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              busy={withdraw.isPending}
              disabled={withdraw.isPending}
              onClick={async () => {
                const r = await withdraw.mutateAsync([{ amountUsd: review.amountUsd }]);
                if (r.ok) setReview(null);
              }}
            >
              Confirm withdrawal
            </Button>
            <Button variant="secondary" disabled={withdraw.isPending} onClick={() => setReview(null)}>
              Back
            </Button>
          </div>
          <FormError message={error?.message} />
        </div>
      ) : (
        <form
          aria-label="Withdraw"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setReview({ amountUsd: String(new FormData(e.currentTarget).get("amountUsd") ?? "").trim() });
          }}
        >
          <Field label="Amount (USD)" error={error?.param === "amountUsd" ? error.message : undefined}>
            {(p) => <Input {...p} name="amountUsd" inputMode="decimal" required autoComplete="off" />}
          </Field>
          <Button type="submit" disabled={!destination}>
            Review
          </Button>
        </form>
      )}
      {done && !review ? (
        <p role="status" className="mt-3 text-sm text-slate-700">
          Withdrawal {done.id} of {done.amountUsd} USD is {done.status}.
        </p>
      ) : null}
      {!review && error && error.param !== "amountUsd" ? <FormError message={error.message} /> : null}
    </Card>
  );
}

function SimulateWithdrawal({ id, processing }: { id: string; processing: boolean }) {
  const simulate = useOnceMutation(simulateWithdrawalAction);
  if (!processing) return <span className="text-xs text-slate-600">—</span>;
  return (
    <SimulateButtons
      simulations={[
        { action: "completed", label: "Simulate completed", enabled: true },
        { action: "failed", label: "Simulate failed", enabled: true },
      ]}
      busy={simulate.isPending}
      pendingAction={simulate.variables?.[1]}
      error={actionError(simulate.data, simulate.error)?.message}
      onSimulate={(action) => simulate.mutate([id, action as "completed" | "failed"])}
    />
  );
}
