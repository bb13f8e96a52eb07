"use client";
import Link from "next/link";
import type { PaymentDetail } from "@/lib/dashboard/queries";
import { refundAction, simulateAction } from "@/app/dashboard/actions";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateButtons } from "@/components/dashboard/simulate-buttons";
import { countryName } from "@/components/dashboard/payment-labels";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money, formatDateTime } from "@/components/ui/money";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";

const SIMULATIONS: Array<{ action: "paid" | "failed" | "expired" | "refunded" | "chargeback"; label: string; when: string }> = [
  { action: "paid", label: "Simulate paid", when: "pending" },
  { action: "failed", label: "Simulate failed", when: "pending" },
  { action: "expired", label: "Simulate expired", when: "pending" },
  { action: "refunded", label: "Simulate refunded", when: "completed" },
  { action: "chargeback", label: "Simulate chargeback", when: "completed" },
];

export function PaymentDetailView({ environment, id, initial, canMoveMoney }: { environment: string; id: string; initial: PaymentDetail; canMoveMoney: boolean }) {
  const { data } = useLiveData<PaymentDetail>(environment, "payment", { id }, initial, 2_000);
  const { payment: p, claims, events, deliveries } = data;
  return (
    <>
      <MoneyRecordHeader href="/dashboard/payments" label="Payments" id={p.id} amount={p.amount} currency={p.currency} status={p.status} statusTestId="payment-status" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Amounts" id="amounts">
            <DescriptionList
              items={[
                ["Amount (USD)", <Money key="a" amount={p.amount} currency="USD" />],
                ["Amount (local)", <Money key="l" amount={p.amountLocal} currency={p.currencyLocal} />],
                ...(p.inputCurrency && p.inputAmount !== undefined ? ([["Charged as", <Money key="i" amount={p.inputAmount} currency={p.inputCurrency} />]] as Array<[string, React.ReactNode]>) : []),
                ["Refunded", <Money key="r" amount={p.refundedAmountLocal} currency={p.currencyLocal} />],
                ["Platform fee", <Money key="f1" amount={p.fees.platform} currency="USD" />],
                ["Provider fee", <Money key="f2" amount={p.fees.provider} currency="USD" />],
                ["Network fee", <Money key="f3" amount={p.fees.network} currency="USD" />],
                ["Total fees", <Money key="f4" amount={p.fees.total} currency="USD" />],
              ]}
            />
          </Card>
          <Card title="Settlement" id="settlement">
            <DescriptionList
              items={[
                ["Status", <StatusBadge key="s" status={p.settlement.status} />],
                ["Delay", p.settlement.delay],
                ["Reserve held", <Money key="r" amount={p.settlement.reserve} currency="USD" />],
              ]}
            />
          </Card>
          <Card title="Customer" id="customer">
            <DescriptionList
              items={[
                ["Name", p.customer.name],
                ["E-mail", p.customer.email],
              ]}
            />
          </Card>
          <Card title="Details" id="details">
            <DescriptionList
              items={[
                ["Method", `${p.paymentMethodName} (${p.paymentMethodId})`],
                ["Country", countryName(p.country)],
                ["Provider", p.provider],
                ["Order id", p.merchantOrderId],
                ["Tags", [p.tag1, p.tag2, p.tag3].filter(Boolean).join(", ") || null],
                ["Created", formatDateTime(p.timestamps.created)],
                ["Completed", formatDateTime(p.timestamps.completed)],
                ["Expires", formatDateTime(p.expiresAt)],
              ]}
            />
          </Card>
          <Card title="Cascade attempts" id="attempts">
            {p.attempts.length === 0 ? (
              <EmptyState title="No provider attempts recorded" />
            ) : (
              <Table caption="Provider attempts, in order">
                <thead>
                  <tr>
                    <Th>#</Th>
                    <Th>Provider</Th>
                    <Th>Outcome</Th>
                    <Th>Reason</Th>
                    <Th className="text-right">Duration</Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {p.attempts.map((a, i) => (
                    <tr key={i}>
                      <Td>{i + 1}</Td>
                      <Td>{a.provider}</Td>
                      <Td>
                        <StatusBadge status={a.outcome} />
                      </Td>
                      <Td className="whitespace-normal">{a.reason ?? "—"}</Td>
                      <Td className="text-right tabular-nums">{a.durationMs} ms</Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Card>
          <Card title="Webhook deliveries" id="deliveries">
            {deliveries.length === 0 ? (
              <EmptyState title="No deliveries">Events of this payment go to every subscription that wants them.</EmptyState>
            ) : (
              <Table caption="Webhook deliveries of this payment's events">
                <thead>
                  <tr>
                    <Th>Event</Th>
                    <Th>Status</Th>
                    <Th>Attempts</Th>
                    <Th>Response</Th>
                    <Th>Subscription</Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {deliveries.map((dl) => (
                    <tr key={dl.id}>
                      <Td>{dl.event}</Td>
                      <Td>
                        <StatusBadge status={dl.status} />
                      </Td>
                      <Td>{dl.attempts}</Td>
                      <Td>{dl.responseStatus ?? "—"}</Td>
                      <Td>
                        <Link className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href={`/dashboard/webhooks/${dl.subscriptionId}`}>
                          {dl.subscriptionId}
                        </Link>
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Card>
        </div>
        <div className="space-y-6">
          {canMoveMoney && environment === "sandbox" ? <SimulateCard id={p.id} status={p.status} /> : null}
          {canMoveMoney && p.status === "completed" ? <RefundCard id={p.id} currency={p.currencyLocal} /> : null}
          <Card title="Timeline" id="timeline">
            {events.length === 0 ? (
              <EmptyState title="No events yet" />
            ) : (
              <ol className="space-y-3 border-l border-slate-200 pl-4" aria-label="Events, oldest first">
                {events.map((e) => (
                  <li key={e.id} className="relative">
                    <span aria-hidden className="absolute -left-[21px] top-1.5 size-2.5 rounded-full bg-indigo-500" />
                    <p className="text-sm font-medium text-slate-900">{e.type}</p>
                    <p className="text-xs text-slate-600">
                      {formatDateTime(e.createdAt)} · <span className="font-mono">{e.id}</span>
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </Card>
          <Card title="Refunds and chargebacks" id="claims">
            {claims.length === 0 ? (
              <EmptyState title="None" />
            ) : (
              <ul className="space-y-3">
                {claims.map((c) => (
                  <li key={c.id} data-testid="payment-claim" className="rounded-md border border-slate-200 p-3 text-sm">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{c.kind === "chargeback" ? "Chargeback" : "Refund"}</span>
                      <Money amount={c.amount} currency={c.currency} />
                      <StatusBadge status={c.status} />
                    </p>
                    <p className="mt-1 text-xs text-slate-600">{c.history.map((h) => `${h.status} ${formatDateTime(h.at)}`).join(" → ")}</p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}

function SimulateCard({ id, status }: { id: string; status: string }) {
  const simulate = useOnceMutation(simulateAction);
  const result = simulate.data;
  return (
    <Card title="Sandbox simulation" id="simulate">
      <p className="mb-3 text-sm text-slate-600">Drive this test payment through its states (reference 3.1).</p>
      <SimulateButtons
        simulations={SIMULATIONS.map((s) => ({ action: s.action, label: s.label, enabled: status === s.when }))}
        busy={simulate.isPending}
        pendingAction={simulate.variables?.[1]}
        error={result && !result.ok ? result.error.message : simulate.error?.message}
        onSimulate={(action) => simulate.mutate([id, action as (typeof SIMULATIONS)[number]["action"]])}
      />
    </Card>
  );
}

function RefundCard({ id, currency }: { id: string; currency: string }) {
  const refund = useOnceMutation(refundAction);
  const error = actionError(refund.data, refund.error);
  const done = refund.data?.ok ? refund.data.data : null;
  return (
    <Card title="Refund" id="refund">
      <form
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          refund.mutate([id, { amount: String(f.get("amount") ?? ""), reason: String(f.get("reason") ?? "") }]);
        }}
      >
        <Field label={`Amount (${currency})`} hint="Leave empty to refund everything that remains." error={error?.param === "amount" ? error.message : undefined}>
          {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" />}
        </Field>
        <Field label="Reason" error={error?.param === "reason" ? error.message : undefined}>
          {(p) => (
            <Select {...p} name="reason" defaultValue="requested_by_customer">
              <option value="requested_by_customer">Requested by customer</option>
              <option value="duplicate">Duplicate</option>
              <option value="fraudulent">Fraudulent</option>
              <option value="other">Other</option>
            </Select>
          )}
        </Field>
        {error && error.param !== "amount" && error.param !== "reason" ? <FormError message={error.message} /> : null}
        {done ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            Refund {done.refundId} of {done.amount} {done.currency} is {done.status}.
          </p>
        ) : null}
        <Button type="submit" variant="danger" busy={refund.isPending}>
          Refund
        </Button>
      </form>
    </Card>
  );
}
