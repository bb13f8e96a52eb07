"use client";
// A payment's detail page (app/dashboard/(app)/payments/[id]): live data of the payment with its
// claims, events and webhook deliveries, laid out in three blocks. Its sections are in
// components/dashboard/payment-detail/.
import type { PaymentDetail } from "@/lib/dashboard/queries";
import { simulateAction } from "@/server/actions/payments";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateCard } from "@/components/dashboard/kit/simulate";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { hasOpenChargeback, paymentDisplayStatus } from "@/lib/dashboard/display-status";
import { AmountsCard, PaymentLead } from "@/components/dashboard/payment-detail/amounts";
import { paymentAmounts } from "@/components/dashboard/payment-amount";
import { ClaimsCard, TimelineCard } from "@/components/dashboard/payment-detail/history";
import { CustomerCard, DetailsCard, SettlementCard } from "@/components/dashboard/payment-detail/facts";
import { DeliveriesCard, ProviderAttemptsCard } from "@/components/dashboard/payment-detail/diagnostics";
import { RefundCard, RefundHeldCard } from "@/components/dashboard/payment-detail/refund-card";

const SIMULATIONS: Array<{ action: "paid" | "failed" | "expired" | "refunded" | "chargeback" | "open_med"; label: string; when: string; pixOnly?: true }> = [
  { action: "paid", label: "Simulate paid", when: "pending" },
  { action: "failed", label: "Simulate failed", when: "pending" },
  { action: "expired", label: "Simulate expired", when: "pending" },
  { action: "refunded", label: "Simulate refunded", when: "completed" },
  { action: "chargeback", label: "Simulate chargeback", when: "completed" },
  // PIX has no chargebacks: the payer's bank opens a MED instead (a claim that blocks the amount).
  { action: "open_med", label: "Simulate PIX MED", when: "completed", pixOnly: true },
];

/**
 * Whether a simulation applies: the payment's status first, then what its claims forbid (one open
 * chargeback at a time; no refund in full while a refund or chargeback is still open), the rules
 * the sandbox applies, so a tester is told before clicking.
 */
function simulationState(s: (typeof SIMULATIONS)[number], status: string, claims: PaymentDetail["claims"]): { enabled: boolean; why?: string } {
  if (status !== s.when) return { enabled: false };
  if (s.action === "open_med" && claims.some((c) => c.kind === "pix_med" && c.status === "open")) return { enabled: false, why: "a MED of this payment is still open; decide it first." };
  if (s.action === "chargeback" && hasOpenChargeback(claims)) return { enabled: false, why: "this payment is already disputed; decide the open chargeback first." };
  if (s.action === "refunded" && claims.some((c) => c.status === "open" || c.status === "pending")) return { enabled: false, why: "a refund or chargeback of this payment is still open." };
  return { enabled: true };
}

export function PaymentDetailView({ environment, id, initial, canMoveMoney }: { environment: string; id: string; initial: PaymentDetail; canMoveMoney: boolean }) {
  const { data } = useLiveData(environment, "payment", { id }, initial, 2_000);
  const { payment: p, claims, events, deliveries } = data;
  const disputed = hasOpenChargeback(claims);
  return (
    <>
      <MoneyRecordHeader href="/dashboard/payments" label="Payments" current={`Payment of ${paymentAmounts(p).lead}`} id={p.id} amount={p.amount} currency={p.currency} lead={<PaymentLead payment={p} />} status={paymentDisplayStatus(p, claims)} statusOf="payment" apiStatus={p.status} statusTestId="payment-status" />
      {/* Three blocks: the amounts, the actions (simulate, refund) with the timeline and claims,
          then the details and diagnostics. On a desktop the actions are the right-hand column
          beside the other two; on a tablet or phone they come right after the amounts, before
          the diagnostic panels. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
        <div className="space-y-6 lg:col-span-2">
          <AmountsCard payment={p} />
        </div>
        <div className="space-y-6 lg:col-start-3 lg:row-span-2 lg:row-start-1" data-testid="payment-actions">
          {canMoveMoney && environment === "sandbox" ? (
            <SimulateCard
              target={p.id}
              action={simulateAction}
              description="Drive this test payment through its states, as the provider would."
              outcomes={SIMULATIONS.filter((s) => !s.pixOnly || p.paymentMethod === "pix").map((s) => ({ action: s.action, label: s.label, ...simulationState(s, p.status, claims) }))}
            />
          ) : null}
          {canMoveMoney && p.status === "completed" && disputed ? <RefundHeldCard /> : null}
          {canMoveMoney && p.status === "completed" && !disputed ? <RefundCard id={p.id} currency={p.currencyLocal} refundable={data.refundable} claims={claims} /> : null}
          <TimelineCard entries={data.timeline} />
          <ClaimsCard claims={claims} />
        </div>
        <div className="space-y-6 lg:col-span-2">
          <SettlementCard payment={p} />
          <CustomerCard payment={p} />
          <DetailsCard payment={p} />
          <ProviderAttemptsCard attempts={p.attempts} />
          <DeliveriesCard deliveries={deliveries} events={events} />
        </div>
      </div>
    </>
  );
}
