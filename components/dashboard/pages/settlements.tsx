"use client";
// Settlement batches: what each swept from the available balance to the settlement destination,
// its receipt (PDF, once the job rendered it), where they go (the destination, settable here),
// and in the sandbox "Run settlement now" and the paid/failed outcomes a custody provider would
// report.
import { useRouter } from "next/navigation";
import type { LoaderData } from "@/server/dashboard-loaders";
import { runSettlementAction, runSmallSettlementAction, setSettlementDestinationAction, simulateSettlementAction } from "@/server/actions/settlements";
import { settleNowAction } from "@/server/actions/sandbox";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { simulateColumn } from "@/components/dashboard/kit/simulate";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money, formatMoney } from "@/components/ui/money";
import { IdDetail } from "@/components/ui/id-detail";
import { useTimes } from "@/components/ui/time-zone";
import { DateTimeCell } from "@/components/ui/date-time";
import { CRYPTO_ASSETS, CRYPTO_NETWORKS } from "@/lib/crypto-assets/networks";

type List = LoaderData<"settlements">;
type Settlement = List["data"][number];
type Destination = { asset: string; network: string; address: string } | null;

export function SettlementsView({ environment, initial, destination, canRun, canSettle = false, canSimulate, canManage }: { environment: string; initial: List; destination: Destination; canRun: boolean; canSettle?: boolean; canSimulate: boolean; canManage: boolean }) {
  const { formatDate } = useTimes();
  const { data } = useLiveData(environment, "settlements", { limit: 20 }, initial, 3_000);
  const sandbox = environment === "sandbox";
  return (
    <>
      <PageHeader title="Settlements" description="Daily batches that send your available balance, less the withdrawal fee, to your settlement destination." />
      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <DestinationCard destination={destination} canManage={canManage} />
        {sandbox && canRun ? <RunCard canSettle={canSettle} /> : null}
      </div>
      <Card title="Batches" id="settlements-list">
        <ResourceTable
          caption="Settlement batches, newest first"
          rows={data.data}
          rowKey={(s) => s.id}
          rowProps={() => ({ "data-testid": "settlement-row" })}
          empty={{ title: "No settlements yet", body: `A batch closes once a day when the available balance reaches ${formatMoney(50, "USD")} and a destination is set.` }}
          // At 1366 and 820 px the period (its dates whole), the net amount, the status, the
          // receipt and the sandbox outcomes stay in view: the gross − fee breakdown stacks under
          // the net, and below xl the receipt link stacks under the status.
          columns={[
            {
              header: "Period",
              name: "date",
              wrap: true,
              cell: (s) => (
                <>
                  <span className="block">
                    <span className="whitespace-nowrap">{formatDate(s.periodFrom)}</span> – <span className="whitespace-nowrap">{formatDate(s.periodTo)}</span>
                  </span>
                  <IdDetail id={s.id} />
                </>
              ),
            },
            {
              header: "Net",
              name: "amount",
              align: "right",
              cell: (s) => (
                <>
                  <Money className="font-medium" amount={s.netUsd} currency="USD" />
                  <span className="block text-xs text-slate-600">
                    <Money amount={s.grossUsd} currency="USD" /> gross
                  </span>
                  <span className="block text-xs text-slate-600">
                    − <Money amount={s.feeUsd} currency="USD" /> fee
                  </span>
                </>
              ),
            },
            {
              header: "Status",
              name: "status",
              cell: (s) => (
                <>
                  <StatusBadge of="settlement" status={s.status} />
                  {s.paidAt ? <DateTimeCell iso={s.paidAt} /> : null}
                  <span className="mt-1 block xl:hidden" data-col="receipt">
                    <Receipt s={s} />
                  </span>
                </>
              ),
            },
            { header: "Receipt", name: "receipt", from: "xl", cell: (s) => <Receipt s={s} /> },
            sandbox && canSimulate && simulateColumn(simulateSettlementAction, ["paid", "failed"], "closed"),
          ]}
        />
      </Card>
    </>
  );
}

function Receipt({ s }: { s: Settlement }) {
  return s.receiptReady ? (
    <a className="whitespace-nowrap text-indigo-700 underline underline-offset-2" href={`/dashboard/api/settlements/${s.id}/receipt`} download>
      Download receipt
    </a>
  ) : (
    <span className="text-xs text-slate-600">Preparing…</span>
  );
}

function DestinationCard({ destination, canManage }: { destination: Destination; canManage: boolean }) {
  const router = useRouter();
  return (
    <Card title="Settlement destination" id="settlement-destination">
      {destination ? (
        <p className="mb-3 text-sm" data-testid="settlement-destination">
          {destination.asset} on {destination.network}: <span className="break-all font-mono text-xs">{destination.address}</span>
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-600">None set: batches and withdrawals wait until you set one.</p>
      )}
      {canManage ? (
        <ActionForm
          label="Set the settlement destination"
          action={setSettlementDestinationAction}
          toArgs={(f) => [{ asset: String(f.get("asset")), network: String(f.get("network")), address: String(f.get("address") ?? "") }]}
          fields={["asset", "network", "address"]}
          labels={{ address: "Address" }}
          submitLabel={destination ? "Replace destination" : "Set destination"}
          submitVariant="secondary"
          review={([d]) => (
            <p>
              Send future settlements and withdrawals as <strong>{d.asset}</strong> on <strong>{d.network}</strong> to <span className="break-all font-mono">{d.address}</span>. Money sent to a wrong address cannot be recovered: check it against your wallet.
            </p>
          )}
          confirmLabel="Save destination"
          onDone={() => router.refresh()}
          done={() => <>Destination saved.</>}
        >
          {(f) => (
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <Field label="Asset" error={f.error("asset")}>
                {(p) => (
                  <Select {...p} name="asset" defaultValue={destination?.asset ?? "USDT"}>
                    {CRYPTO_ASSETS.map((a) => (
                      <option key={a}>{a}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Network" error={f.error("network")}>
                {(p) => (
                  <Select {...p} name="network" defaultValue={destination?.network ?? "TRON"}>
                    {CRYPTO_NETWORKS.map((n) => (
                      <option key={n}>{n}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Address" className="sm:col-span-2" error={f.error("address")} hint="TRON addresses start with T; Ethereum and Polygon ones with 0x.">
                {(p) => <Input {...p} name="address" autoComplete="off" spellCheck={false} className="font-mono" />}
              </Field>
            </div>
          )}
        </ActionForm>
      ) : null}
    </Card>
  );
}

function RunCard({ canSettle }: { canSettle: boolean }) {
  const router = useRouter();
  return (
    <Card title="Run settlement now (sandbox)" id="settlement-run">
      {canSettle ? (
        <div className="mb-4 border-b border-slate-100 pb-4">
          <p className="mb-3 text-sm text-slate-600">
            Payments wait a day or more before their money is available. In the sandbox you can make it available now, as the daily job would on the settlement date (the reserve stays held).
          </p>
          <ActionForm
            label="Settle pending funds now"
            action={settleNowAction}
            toArgs={() => []}
            fields={[]}
            submitLabel="Settle pending funds now"
            submitVariant="secondary"
            onDone={() => router.refresh()}
            done={(d) =>
              d.settled === 0 ? "Nothing was waiting: no completed payment has pending funds." : `${d.settled} ${d.settled === 1 ? "payment" : "payments"} settled. Available now: ${formatMoney(d.available, "USD")}.`
            }
          >
            {() => null}
          </ActionForm>
        </div>
      ) : null}
      <p className="mb-3 text-sm text-slate-600">Close a batch of the available balance now, as the daily job would.</p>
      <ActionForm
        label="Run settlement now"
        action={runSettlementAction}
        toArgs={() => []}
        fields={[]}
        submitLabel="Run settlement now"
        done={(d) =>
          d.settlement ? `Closed a settlement of ${formatMoney(d.settlement.netUsd, "USD")} net.` : d.skipped === "below_minimum" ? `Nothing to settle: the available balance is under ${formatMoney(50, "USD")}.` : "Nothing to settle: set a settlement destination first."
        }
      >
        {() => null}
      </ActionForm>
      <div className="mt-4 border-t border-slate-100 pt-4">
        <p className="mb-3 text-sm text-slate-600">
          The daily batch waits for {formatMoney(50, "USD")}. To see a batch close with a smaller balance, settle it anyway (sandbox only: production keeps the minimum; the withdrawal fee still applies).
        </p>
        <ActionForm
          label="Settle a small balance anyway"
          action={runSmallSettlementAction}
          toArgs={() => []}
          fields={[]}
          submitLabel="Settle now anyway"
          submitVariant="secondary"
          onDone={() => router.refresh()}
          done={(d) =>
            d.settlement ? (
              <>
                Batch closed: <Money amount={d.settlement.netUsd} currency="USD" /> net, after the <Money amount={d.settlement.feeUsd} currency="USD" /> fee.
              </>
            ) : d.skipped === "no_destination" ? (
              "Nothing to settle: set a settlement destination first."
            ) : (
              "Nothing to settle: the available balance does not cover the withdrawal fee."
            )
          }
        >
          {() => null}
        </ActionForm>
      </div>
    </Card>
  );
}
