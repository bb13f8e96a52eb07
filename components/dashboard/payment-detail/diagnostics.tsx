// The diagnostic panels of a payment's detail page (components/dashboard/pages/payment-detail.tsx):
// the providers the cascade tried, in order, and the webhook deliveries of the payment's events.
import Link from "next/link";
import type { LoaderData } from "@/server/dashboard-loaders";
import { eventLabel, providerName } from "@/components/dashboard/payment-labels";
import { Card } from "@/components/ui/card";
import { Term } from "@/components/ui/term";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { declineWord } from "@/components/dashboard/plain-words";

type Detail = LoaderData<"payment">;

export function ProviderAttemptsCard({ attempts }: { attempts: Detail["payment"]["attempts"] }) {
  return (
    <Card title={<Term tech="Cascade attempts">Providers tried</Term>} id="attempts">
      {attempts.length === 0 ? (
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
            {attempts.map((a, i) => (
              <tr key={i}>
                <Td>{i + 1}</Td>
                <Td>{providerName(a.provider)}</Td>
                <Td>
                  <StatusBadge of="attempt" status={a.outcome} />
                </Td>
                <Td className="whitespace-normal">{a.reason ? <Term tech={a.reason}>{declineWord(a.reason)}</Term> : "—"}</Td>
                <Td className="text-right tabular-nums">{a.durationMs} ms</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

export function DeliveriesCard({ deliveries, events }: { deliveries: Detail["deliveries"]; events: Detail["events"] }) {
  const kindOf = new Map(events.map((e) => [e.id, e.kind]));
  return (
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
                  <StatusBadge of="delivery" status={dl.status} />
                </Td>
                <Td>{dl.attempts}</Td>
                <Td>{dl.responseStatus ?? "—"}</Td>
                <Td>
                  <Link className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href={`/dashboard/webhooks/${dl.subscriptionId}`} title={dl.subscriptionId}>
                    View endpoint
                  </Link>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
