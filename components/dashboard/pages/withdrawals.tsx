"use client";
// Withdrawals: send available pay-in USD to a crypto address (the settlement destination unless
// another is given), with the tier's fee shown before sending and a confirmation step; the list
// of withdrawals, live; in the sandbox, the custody provider's outcomes as buttons.
import type { LoaderData } from "@/server/dashboard-loaders";
import { simulateWithdrawalAction, withdrawAction } from "@/server/actions/withdrawals";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { simulateColumn } from "@/components/dashboard/kit/simulate";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money } from "@/components/ui/money";
import { DateTimeCell } from "@/components/ui/date-time";
import { IdDetail } from "@/components/ui/id-detail";
import { failureWord, typedAmount } from "@/components/dashboard/plain-words";
import { statusWord } from "@/components/dashboard/status-words";

type List = LoaderData<"withdrawals">;
type Withdrawal = List["data"][number];
type Destination = { asset: string; network: string; address: string } | null;

export function WithdrawalsView(props: { environment: string; initial: List; destination: Destination; initialBalance: LoaderData<"balance">; canWithdraw: boolean; canSimulate: boolean }) {
  const { data } = useLiveData(props.environment, "withdrawals", { limit: 20 }, props.initial, 3_000);
  // Live data (every dashboard query is read again once an action settles): "Available" shows a
  // withdrawal the moment it is sent, and a failed one's money coming back.
  const { data: balance } = useLiveData(props.environment, "balance", {}, props.initialBalance, 3_000);
  const sandbox = props.environment === "sandbox";
  return (
    <>
      <PageHeader title="Withdrawals" description="Send available USD to a crypto address on demand, as stablecoins. The withdrawal fee is taken on top of the amount." />
      {props.canWithdraw ? (
        <WithdrawCard
          destination={props.destination}
          availableUsd={balance.balance.available}
          feeUsd={balance.withdrawalFeeUsd}
          list={data.data}
        />
      ) : null}
      <Card title="Withdrawals" id="withdrawals-list" className="mt-6">
        <ResourceTable
          caption="Withdrawals, newest first"
          rows={data.data}
          rowKey={(w) => w.id}
          rowProps={() => ({ "data-testid": "withdrawal-row" })}
          empty={{ title: "No withdrawals yet", body: "Withdrawals you request appear here with their transaction hash once sent." }}
          // At 1366 and 820 px the date, amount, status and the sandbox outcomes stay in view:
          // the destination is a column from xl; narrower it stacks under the date.
          columns={[
            {
              header: "Created",
              name: "date",
              cell: (w) => (
                <>
                  <DateTimeCell iso={w.createdAt} />
                  <IdDetail id={w.id} className="max-w-28" />
                  <span className="block max-w-28 whitespace-normal break-all text-xs text-slate-600 xl:hidden">
                    to {w.destination.asset} on {w.destination.network} {w.destination.address}
                  </span>
                </>
              ),
            },
            {
              header: "Amount (fee)",
              name: "amount",
              align: "right",
              cell: (w) => (
                <>
                  <Money amount={w.amountUsd} currency="USD" />
                  <span className="block text-xs text-slate-600">
                    + <Money amount={w.feeUsd} currency="USD" /> fee
                  </span>
                </>
              ),
            },
            {
              header: "Destination",
              from: "xl",
              wrap: true,
              cell: (w) => (
                <>
                  {w.destination.asset} on {w.destination.network}
                  <span className="block break-all font-mono text-xs text-slate-600">{w.destination.address}</span>
                </>
              ),
            },
            {
              header: "Status",
              name: "status",
              cell: (w) => (
                <>
                  <StatusBadge of="withdrawal" status={w.status} />
                  {w.txHash ? (
                    <span className="block font-mono text-xs text-slate-600" title={w.txHash}>
                      {w.txHash.slice(0, 10)}…
                    </span>
                  ) : null}
                  {w.failureReason ? <span className="block max-w-48 whitespace-normal text-xs text-slate-600" title={w.failureReason}>{failureWord(w.failureReason)}</span> : null}
                </>
              ),
            },
            sandbox && props.canSimulate && simulateColumn(simulateWithdrawalAction, ["completed", "failed"], "processing"),
          ]}
        />
      </Card>
    </>
  );
}

function WithdrawCard({ destination, availableUsd, feeUsd, list }: { destination: Destination; availableUsd: number; feeUsd: number; list: Withdrawal[] }) {
  return (
    <Card title="Withdraw" id="withdraw">
      <p className="mb-3 text-sm text-slate-700">
        Available: <span data-testid="withdraw-available">
          <Money amount={availableUsd} currency="USD" className="font-medium" />
        </span> · fee per withdrawal: <Money amount={feeUsd} currency="USD" />
      </p>
      {destination ? (
        <p className="mb-3 text-sm text-slate-700">
          To your settlement destination: {destination.asset} on {destination.network} <span className="break-all font-mono text-xs">{destination.address}</span>
        </p>
      ) : (
        <p className="mb-3 text-sm text-slate-700">No settlement destination is set yet: set one on the Settlements page before withdrawing.</p>
      )}
      <ActionForm
        label="Withdraw"
        action={withdrawAction}
        toArgs={(f) => [{ amountUsd: String(f.get("amountUsd") ?? "").trim() }]}
        check={(f) => (!destination ? { param: "amountUsd", message: "Set a settlement destination first." } : String(f.get("amountUsd") ?? "").trim() === "" ? { param: "amountUsd", message: "Enter the amount to withdraw." } : null)}
        fields={["amountUsd"]}
        labels={{ amountUsd: "Amount (USD)" }}
        submitLabel="Review"
        reviewLabel="Review the withdrawal"
        review={([input]) => (
          <p>
            Send <strong>{typedAmount(input.amountUsd ?? "", "USD")}</strong>; <Money amount={feeUsd} currency="USD" /> fee on top leaves your balance with it.
          </p>
        )}
        confirmLabel="Confirm withdrawal"
        done={(d) => {
          const now = list.find((w) => w.id === d.withdrawal.id)?.status ?? d.withdrawal.status;
          return (
            <>
              Withdrawal of <Money amount={d.withdrawal.amountUsd} currency="USD" /> is {statusWord("withdrawal", now).toLowerCase()}.
            </>
          );
        }}
      >
        {(f) => (
          <Field label="Amount (USD)" error={f.error("amountUsd")}>
            {(p) => <Input {...p} name="amountUsd" inputMode="decimal" autoComplete="off" />}
          </Field>
        )}
      </ActionForm>
    </Card>
  );
}
