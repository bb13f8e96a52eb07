"use client";
import type { LoaderData } from "@/server/dashboard-loaders";
import Link from "next/link";
import { useState } from "react";
import { createWebhookAction } from "@/server/actions/webhooks";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ActionForm } from "@/components/dashboard/kit/action-form";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { EventPicker } from "@/components/dashboard/event-picker";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { Badge } from "@/components/ui/badge";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { useTimes } from "@/components/ui/time-zone";
import { eventsInWords } from "@/components/dashboard/event-words";

export type Subscription = { id: string; url: string; managed: boolean; events: string[]; status: string; createdAt: string; updatedAt: string };
type Envelope = LoaderData<"webhooks">;

export function WebhooksView({ environment, params, initial, eventTypes, canManage }: { environment: string; params: Record<string, string>; initial: Envelope; eventTypes: string[]; canManage: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "webhooks", params, initial, 5_000);
  return (
    <>
      <PageHeader title="Webhooks" description="Signed event deliveries to your endpoints, or to a managed inbox hosted here." />
      {canManage ? <CreateWebhook eventTypes={eventTypes} /> : null}
      <Card title="Subscriptions" id="subscriptions">
        <ResourceTable
          caption="Webhook subscriptions"
          rows={data.data}
          rowKey={(s) => s.id}
          rowHref={(s) => `/dashboard/webhooks/${s.id}`}
          rowProps={() => ({ "data-testid": "webhook-row" })}
          empty={{ title: "No subscriptions", body: "Add an endpoint, or leave the URL empty for a managed inbox." }}
          columns={[
            {
              header: "Endpoint",
              wrap: true,
              cell: (s) => (
                <>
                  <Link href={`/dashboard/webhooks/${s.id}`} className="break-all font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                    {s.managed ? "Managed inbox" : s.url}
                  </Link>
                  {s.managed ? (
                    <Badge tone="blue" className="ml-2">
                      inbox
                    </Badge>
                  ) : null}
                </>
              ),
            },
            { header: "Events", wrap: true, cell: (s) => <span className="text-xs">{eventsInWords(s.events)}</span> },
            { header: "Status", cell: (s) => <StatusBadge of="webhook" status={s.status} /> },
            { header: "Created", cell: (s) => <span className="text-slate-600">{formatDateTime(s.createdAt)}</span> },
          ]}
          footer={<Pagination pagination={data.pagination} href={(o) => `/dashboard/webhooks?offset=${o}`} label="Subscription pages" />}
        />
      </Card>
    </>
  );
}

function CreateWebhook({ eventTypes }: { eventTypes: string[] }) {
  const [events, setEvents] = useState<string[]>(["*"]);
  return (
    <Card className="mb-6" title="Add a subscription" id="create-webhook">
      {/* Locked after success until the secret is put away: a second click must not make a
          second subscription and replace the secret on screen. */}
      <ActionForm
        label="Add a subscription"
        action={createWebhookAction}
        toArgs={(f) => [{ url: String(f.get("url") ?? ""), events }]}
        fields={["url", "events"]}
        labels={{ url: "Endpoint URL" }}
        submitLabel="Add subscription"
        after="lock"
        againLabel={null}
        onDone={() => setEvents(["*"])}
        done={(created, again) => (
          <div className="space-y-2">
            <SecretReveal label="Signing secret" secret={created.secret} onDone={again} />
            <Link href={`/dashboard/webhooks/${created.id}`} className="text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
              Open the new subscription
            </Link>
          </div>
        )}
      >
        {(f) => (
          <>
            <Field label="Endpoint URL" hint="https://… in production. Leave empty for a managed inbox you can read here." error={f.error("url")}>
              {(p) => <Input {...p} name="url" type="url" inputMode="url" placeholder="https://example.com/webhooks" autoComplete="off" />}
            </Field>
            <EventPicker eventTypes={eventTypes} value={events} onChange={setEvents} error={f.error("events")} />
          </>
        )}
      </ActionForm>
    </Card>
  );
}
