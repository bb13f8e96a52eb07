"use client";
// Top-ups: a deposit address (24 h) to fund the payout USD balance with USDT or USDC; the list
// of top-ups, live, with their status and what was credited; in the sandbox, "Simulate transfer".
import type { LoaderData } from "@/server/dashboard-loaders";
import { createTopupAction, simulateTopupAction } from "@/server/actions/topups";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import { CRYPTO_ASSETS, CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";

type Topup = LoaderData<"topups">["data"][number];

export function TopupsView({ environment, initial, canCreate, canSimulate }: { environment: string; initial: LoaderData<"topups">; canCreate: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "topups", { limit: 20 }, initial, 3_000);
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader title="Top-ups" description="Fund your payout USD balance with stablecoins: send USDT or USDC to a deposit address; it is credited 1:1 once the network confirms it." />
      {canCreate ? <NewTopupCard /> : null}
      <Card title="Top-ups" id="topups-list" className="mt-6">
        <ResourceTable
          caption="Top-ups, newest first"
          rows={data.data}
          rowKey={(t) => t.id}
          rowProps={() => ({ "data-testid": "topup-row" })}
          empty={{ title: "No top-ups yet", body: "Ask for a deposit address above, then send the stablecoin to it." }}
          columns={[
            {
              header: "Address",
              wrap: true,
              cell: (t) => (
                <>
                  {t.asset} on {t.network} <span className="text-xs text-slate-600">(min <Money amount={t.minAmount} currency="USD" />, {t.confirmationsRequired} confirmations)</span>
                  <span className="flex items-center gap-2">
                    <span className="break-all font-mono text-xs">{t.address}</span> <CopyButton value={t.address} label="Copy address" />
                  </span>
                </>
              ),
            },
            { header: "Status", cell: (t) => <StatusBadge of="topup" status={t.status} /> },
            { header: "Credited", align: "right", cell: (t) => (t.creditedUsd === null ? "—" : <Money amount={t.creditedUsd} currency="USD" />) },
            { header: "Expires", cell: (t) => formatDateTime(t.expiresAt) },
            sandbox && canSimulate && { header: "Sandbox", cell: (t: Topup) => (t.status === "awaiting_funds" ? <SimulateTransfer id={t.id} /> : <span className="text-xs text-slate-600">—</span>) },
          ]}
        />
      </Card>
    </>
  );
}

function NewTopupCard() {
  return (
    <Card title="New deposit address" id="topup-new">
      <ActionForm
        label="New deposit address"
        action={createTopupAction}
        toArgs={(f) => [{ asset: String(f.get("asset")), network: String(f.get("network")) }]}
        fields={["asset", "network"]}
        submitLabel="Get address"
        done={(d) => <>Send {d.topup.asset} on {d.topup.network} to the address in the list below.</>}
      >
        {(f) => (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Asset" error={f.error("asset")}>
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
            <Field label="Network" error={f.error("network")}>
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
          </div>
        )}
      </ActionForm>
    </Card>
  );
}

function SimulateTransfer({ id }: { id: string }) {
  return (
    <ActionForm
      label={`Simulate a transfer to ${id}`}
      action={simulateTopupAction}
      toArgs={(f) => [id, String(f.get("amount") ?? "")]}
      fields={["amount"]}
      submitLabel="Simulate transfer"
      submitVariant="secondary"
    >
      {(f) => <Field label="Amount (USD)" error={f.error("amount")}>{(p) => <Input {...p} name="amount" inputMode="decimal" className="w-28" />}</Field>}
    </ActionForm>
  );
}
