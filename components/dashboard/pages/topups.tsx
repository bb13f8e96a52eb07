"use client";
// Top-ups: a deposit address (24 h) to fund the payout USD balance with USDT or USDC; the list
// of top-ups, live, with their status and what was credited; in the sandbox, "Simulate transfer".
import type { z } from "zod";
import { createTopupAction, simulateTopupAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { StatusBadge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Money, formatDateTime } from "@/components/ui/money";
import { CRYPTO_ASSETS, CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";
import type { topup } from "@/lib/topups/schema";

type Topup = z.infer<typeof topup>;
type List = { data: Topup[] };

export function TopupsView({ environment, initial, canCreate, canSimulate }: { environment: string; initial: List; canCreate: boolean; canSimulate: boolean }) {
  const { data } = useLiveData<List>(environment, "topups", { limit: 20 }, initial, 3_000);
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader title="Top-ups" description="Fund your payout USD balance with stablecoins: send USDT or USDC to a deposit address; it is credited 1:1 once the network confirms it." />
      {canCreate ? <NewTopupCard /> : null}
      <Card title="Top-ups" id="topups-list" className="mt-6">
        {data.data.length === 0 ? (
          <EmptyState title="No top-ups yet">Ask for a deposit address above, then send the stablecoin to it.</EmptyState>
        ) : (
          <Table caption="Top-ups, newest first">
            <thead>
              <tr>
                <Th>Address</Th>
                <Th>Status</Th>
                <Th className="text-right">Credited</Th>
                <Th>Expires</Th>
                {sandbox && canSimulate ? <Th>Sandbox</Th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.data.map((t) => (
                <tr key={t.id} data-testid="topup-row">
                  <Td className="whitespace-normal">
                    {t.asset} on {t.network} <span className="text-xs text-slate-600">(min {t.minAmount} USD, {t.confirmationsRequired} confirmations)</span>
                    <span className="flex items-center gap-2">
                      <span className="break-all font-mono text-xs">{t.address}</span> <CopyButton value={t.address} label="Copy address" />
                    </span>
                  </Td>
                  <Td>
                    <StatusBadge status={t.status} />
                  </Td>
                  <Td className="text-right">{t.creditedUsd === null ? "—" : <Money amount={t.creditedUsd} currency="USD" />}</Td>
                  <Td>{formatDateTime(t.expiresAt)}</Td>
                  {sandbox && canSimulate ? (
                    <Td>
                      <SimulateTransfer id={t.id} waiting={t.status === "awaiting_funds"} />
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

function NewTopupCard() {
  const create = useOnceMutation(createTopupAction);
  const error = actionError(create.data, create.error);
  return (
    <Card title="New deposit address" id="topup-new">
      <form
        aria-label="New deposit address"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          create.mutate([{ asset: String(f.get("asset")), network: String(f.get("network")) }]);
        }}
      >
        <Field label="Asset">
          {(p) => (
            <Select {...p} name="asset" defaultValue="USDT">
              {CRYPTO_ASSETS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Network">
          {(p) => (
            <Select {...p} name="network" defaultValue="TRON">
              {CRYPTO_NETWORKS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Button type="submit" busy={create.isPending} disabled={create.isPending}>
          Get address
        </Button>
      </form>
      <div className="mt-2">
        <FormError message={error?.message} />
      </div>
    </Card>
  );
}

function SimulateTransfer({ id, waiting }: { id: string; waiting: boolean }) {
  const simulate = useOnceMutation(simulateTopupAction);
  const error = actionError(simulate.data, simulate.error);
  if (!waiting) return <span className="text-xs text-slate-600">—</span>;
  return (
    <form
      aria-label={`Simulate a transfer to ${id}`}
      className="flex flex-wrap items-end gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        simulate.mutate([id, String(new FormData(e.currentTarget).get("amount") ?? "")]);
      }}
    >
      <Field label="Amount (USD)">{(p) => <Input {...p} name="amount" inputMode="decimal" required className="w-24" />}</Field>
      <Button type="submit" size="sm" variant="secondary" disabled={simulate.isPending}>
        Simulate transfer
      </Button>
      <FormError message={error?.message} />
    </form>
  );
}
