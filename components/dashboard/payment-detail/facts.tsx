"use client";
// The record of a payment on its detail page (components/dashboard/pages/payment-detail.tsx): its
// settlement, its customer and the rest of its details, as description lists.
import type { LoaderData } from "@/server/dashboard-loaders";
import { countryName, providerName, settlementDelayLabel } from "@/components/dashboard/payment-labels";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money } from "@/components/ui/money";
import { Term } from "@/components/ui/term";
import { methodName } from "@/components/dashboard/plain-words";
import { useTimes } from "@/components/ui/time-zone";
import { StatusBadge } from "@/components/dashboard/status-badge";

type Payment = LoaderData<"payment">["payment"];

export function SettlementCard({ payment: p }: { payment: Payment }) {
  return (
    <Card title="Settlement" id="settlement">
      <DescriptionList
        items={[
          ["Status", <StatusBadge key="s" of="paymentSettlement" status={p.settlement.status} />],
          ["Settles", settlementDelayLabel(p.settlement.delay), `Delay ${p.settlement.delay}`],
          ["Reserve held", <Money key="r" amount={p.settlement.reserve} currency="USD" />],
        ]}
      />
    </Card>
  );
}

export function CustomerCard({ payment: p }: { payment: Payment }) {
  return (
    <Card title="Customer" id="customer">
      <DescriptionList
        items={[
          ["Name", p.customer.name],
          ["E-mail", p.customer.email],
        ]}
      />
    </Card>
  );
}

export function DetailsCard({ payment: p }: { payment: Payment }) {
  const { formatDateTime } = useTimes();
  return (
    <Card title="Details" id="details">
      <DescriptionList
        items={[
          ["Method", <Term key="m" tech={p.paymentMethodId}>{methodName(p.paymentMethodName)}</Term>],
          ["Country", countryName(p.country)],
          ["Provider", providerName(p.provider)],
          ["Order id", p.merchantOrderId],
          ["Tags", [p.tag1, p.tag2, p.tag3].filter(Boolean).join(", ") || null],
          ["Created", formatDateTime(p.timestamps.created)],
          ["Completed", formatDateTime(p.timestamps.completed)],
          ["Expires", formatDateTime(p.expiresAt)],
        ]}
      />
    </Card>
  );
}
