"use client";
import Link from "next/link";
import type { PaymentDetail } from "@/lib/dashboard/queries";
import { refundAction, simulateAction } from "@/server/actions/payments";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateCard } from "@/components/dashboard/kit/simulate";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { claimKindLabel, claimStatusLabel, countryName, eventLabel, settlementDelayLabel } from "@/components/dashboard/payment-labels";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { hasOpenChargeback, paymentDisplayStatus } from "@/lib/dashboard/display-status";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money, formatLocalMoney, formatMoney } from "@/components/ui/money";
import { Term } from "@/components/ui/term";
import { useTimes } from "@/components/ui/time-zone";
import { StatusBadge } from "@/components/ui/badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Field, Input, Select } from "@/components/ui/field";

const SIMULATIONS: Array<{ action: "paid" | "failed" | "expired" | "refunded" | "chargeback"; label: string; when: string }> = [
  { action: "paid", label: "Simulate paid", when: "pending" },
  { action: "failed", label: "Simulate failed", when: "pending" },
  { action: "expired", label: "Simulate expired", when: "pending" },
  { action: "refunded", label: "Simulate refunded", when: "completed" },
  { action: "chargeback", label: "Simulate chargeback", when: "completed" },
];

export function PaymentDetailView({ environment, id, initial, canMoveMoney }: { environment: string; id: string; initial: PaymentDetail; canMoveMoney: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "payment", { id }, initial, 2_000);
  const { payment: p, claims, events, deliveries } = data;
  const disputed = hasOpenChargeback(claims);
  const kindOf = new Map(events.map((e) => [e.id, e.kind]));
  // The title leads with what the store asked, in its currency as its buyers write it
  // ("R$ 150,00"), USD beside it; a payment asked in USD shows what the buyer paid beside it.
  const asked = p.inputCurrency && p.inputAmount !== undefined ? { amount: p.inputAmount, currency: p.inputCurrency } : null;
  const lead = (
    <span className="flex flex-wrap items-baseline gap-x-3">
      <span data-testid="payment-asked" className="whitespace-nowrap tabular-nums">
        {asked ? formatLocalMoney(asked.amount, asked.currency) : formatMoney(p.amount, "USD")}
      </span>
      {asked ? (
        <span data-testid="payment-usd" className="whitespace-nowrap text-base font-normal tabular-nums text-slate-600">
          {formatMoney(p.amount, "USD")}
        </span>
      ) : p.currencyLocal !== "USD" ? (
        <span data-testid="payment-local" className="whitespace-nowrap text-base font-normal tabular-nums text-slate-600">
          {formatLocalMoney(p.amountLocal, p.currencyLocal)} paid
        </span>
      ) : null}
    </span>
  );
  return (
    <>
      <MoneyRecordHeader href="/dashboard/payments" label="Payments" id={p.id} amount={p.amount} currency={p.currency} lead={lead} status={paymentDisplayStatus(p, claims)} statusTestId="payment-status" />
      {/* Three blocks: the amounts, the actions (simulate, refund) with the timeline and claims,
          then the details and diagnostics. On a desktop the actions are the right-hand column
          beside the other two; on a tablet or phone they come right after the amounts, before
          the diagnostic panels. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Amounts" id="amounts">
            <DescriptionList
              items={[
                ...(asked ? ([["Asked by the store", <span key="i" className="tabular-nums">{formatLocalMoney(asked.amount, asked.currency)}</span>, "Charged as (inputAmount in inputCurrency)"]] as Array<[string, React.ReactNode, string]>) : []),
                ["Amount (USD)", <Money key="a" amount={p.amount} currency="USD" />],
                ["Paid by the buyer", <Money key="l" amount={p.amountLocal} currency={p.currencyLocal} />, "Amount (local): amountLocal"],
                ["Refunded", <Money key="r" amount={p.refundedAmountLocal} currency={p.currencyLocal} />],
                ["Platform fee", <Money key="f1" amount={p.fees.platform} currency="USD" />],
                ["Provider fee", <Money key="f2" amount={p.fees.provider} currency="USD" />],
                ["Network fee", <Money key="f3" amount={p.fees.network} currency="USD" />],
                ["Total fees", <Money key="f4" amount={p.fees.total} currency="USD" />],
              ]}
            />
          </Card>
        </div>
        <div className="space-y-6 lg:col-start-3 lg:row-span-2 lg:row-start-1" data-testid="payment-actions">
          {canMoveMoney && environment === "sandbox" ? (
            <SimulateCard
              target={p.id}
              action={simulateAction}
              description="Drive this test payment through its states, as the provider would."
              outcomes={SIMULATIONS.map((s) => ({ action: s.action, label: s.label, enabled: p.status === s.when }))}
            />
          ) : null}
          {canMoveMoney && p.status === "completed" && disputed ? (
            <Card title="Refund" id="refund">
              <p className="text-sm text-slate-700">A chargeback is open on this payment: the disputed amount is held until the issuer decides, so no refund can be made meanwhile.</p>
            </Card>
          ) : null}
          {canMoveMoney && p.status === "completed" && !disputed ? <RefundCard id={p.id} currency={p.currencyLocal} refundable={data.refundable} claims={claims} /> : null}
          <Card title="Timeline" id="timeline">
            {events.length === 0 ? (
              <EmptyState title="No events yet" />
            ) : (
              <ol className="space-y-3 border-l border-slate-200 pl-4" aria-label="Events, oldest first">
                {events.map((e) => (
                  <li key={e.id} className="relative">
                    <span aria-hidden className="absolute -left-[21px] top-1.5 size-2.5 rounded-full bg-indigo-500" />
                    <p className="text-sm font-medium text-slate-900" data-testid="timeline-event">
                      <Term tech={e.type}>{eventLabel(e.type, e.kind)}</Term>
                    </p>
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
                      <Term tech={c.id}>
                        <span className="font-medium">{claimKindLabel(c.kind)}</span>
                      </Term>
                      <Money amount={c.amount} currency={c.currency} />
                      <StatusBadge status={c.status} label={claimStatusLabel(c.status, c.kind)} />
                    </p>
                    <p className="mt-1 text-xs text-slate-600">{c.history.map((h) => `${claimStatusLabel(h.status, c.kind)} ${formatDateTime(h.at)}`).join(" → ")}</p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
        <div className="space-y-6 lg:col-span-2">
          <Card title="Settlement" id="settlement">
            <DescriptionList
              items={[
                ["Status", <StatusBadge key="s" status={p.settlement.status} />],
                ["Settles", settlementDelayLabel(p.settlement.delay), `Delay ${p.settlement.delay}`],
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
          <Card title={<Term tech="Cascade attempts">Providers tried</Term>} id="attempts">
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
                      <Td>
                        <Term tech={dl.event}>{eventLabel(dl.event, kindOf.get(dl.eventId))}</Term>
                      </Td>
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
      </div>
    </>
  );
}

/** "150.00 BRL can still be refunded": what remains after every refund made or under way. */
const canStill = (amount: number, currency: string) => `${formatMoney(amount, currency)} can still be refunded`;

/** A typed amount as a number (a comma is a decimal point, as the server reads it); NaN if it is none. */
const typed = (amount: string) => (amount.trim() === "" ? Number.NaN : Number(amount.trim().replace(",", ".")));

function RefundCard({ id, currency, refundable, claims }: { id: string; currency: string; refundable: number; claims: ReadonlyArray<{ id: string; status: string }> }) {
  // `refundable` is live (the payment's data is read again after the refund is sent), so the
  // field, its hint and the review below follow each refund without a reload. The server checks
  // again in the refund's own transaction: this only spares a confirmation that would be refused.
  if (refundable <= 0) {
    return (
      <Card title="Refund" id="refund">
        <p className="text-sm text-slate-700" data-testid="refundable">
          Nothing more can be refunded: the whole payment is refunded or being refunded.
        </p>
      </Card>
    );
  }
  return (
    <Card title="Refund" id="refund">
      <p className="mb-3 text-sm text-slate-700" data-testid="refundable">
        {canStill(refundable, currency)}.
      </p>
      <ActionForm
        label="Refund"
        action={refundAction}
        toArgs={(f) => [id, { amount: String(f.get("amount") ?? "").trim(), reason: String(f.get("reason") ?? "") }]}
        check={(f) => {
          const amount = typed(String(f.get("amount") ?? ""));
          if (String(f.get("amount") ?? "").trim() === "") return { param: "amount", message: `Enter the amount to refund, up to ${formatMoney(refundable, currency)}.` };
          if (!Number.isFinite(amount) || amount <= 0) return { param: "amount", message: `Enter an amount such as ${formatMoney(refundable, currency)}.` };
          if (amount > refundable) return { param: "amount", message: `Only ${formatMoney(refundable, currency)} can still be refunded. Enter that or less.` };
          return null;
        }}
        fields={["amount", "reason"]}
        labels={{ amount: "Amount" }}
        submitLabel="Review refund"
        submitVariant="secondary"
        review={([, { amount = "", reason = "" }]) => {
          const after = Math.max(0, Math.round((refundable - typed(amount)) * 100) / 100);
          return (
            <p>
              Refund <strong>{formatMoney(typed(amount), currency)}</strong> of this payment to the buyer ({REASONS[reason] ?? reason}).{" "}
              {after <= 0 ? "That is everything that can still be refunded." : `After it, ${canStill(after, currency)}.`} A refund cannot be undone.
            </p>
          );
        }}
        confirmLabel="Refund now"
        confirmVariant="danger"
        done={(d) => {
          // The refund's status as it is now (the claims list is live), not as it was when asked.
          const now = claims.find((c) => c.id === d.refundId)?.status ?? d.status;
          return (
            <>
              <Term tech={d.refundId}>Refund</Term> of {formatMoney(Number(d.amount), d.currency)}: {claimStatusLabel(now, "user_dispute").toLowerCase()}.
            </>
          );
        }}
      >
        {(f) => (
          <>
            <Field label={`Amount (${currency})`} hint={`Up to ${formatMoney(refundable, currency)}.`} error={f.error("amount")}>
              {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" defaultValue={String(refundable)} />}
            </Field>
            <Field label="Reason" error={f.error("reason")}>
              {(p) => (
                <Select {...p} name="reason" defaultValue="requested_by_customer">
                  {Object.entries(REASONS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </>
        )}
      </ActionForm>
    </Card>
  );
}

const REASONS: Record<string, string> = { requested_by_customer: "Requested by customer", duplicate: "Duplicate", fraudulent: "Fraudulent", other: "Other" };
