"use client";
import Link from "next/link";
import { useState } from "react";
import { createWebhookAction } from "@/app/dashboard/actions";
import { actionError, useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { EventPicker } from "@/components/dashboard/event-picker";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { formatDateTime } from "@/components/ui/money";

export type Subscription = { id: string; url: string; managed: boolean; events: string[]; status: string; createdAt: string; updatedAt: string };
type Envelope = { data: Subscription[]; pagination?: { total: number; limit: number; offset: number; pages: number } };

export function WebhooksView({ environment, params, initial, eventTypes, canManage }: { environment: string; params: Record<string, string>; initial: Envelope; eventTypes: string[]; canManage: boolean }) {
  const { data } = useLiveData<Envelope>(environment, "webhooks", params, initial, 5_000);
  return (
    <>
      <PageHeader title="Webhooks" description="Signed event deliveries to your endpoints, or to a managed inbox hosted here." />
      {canManage ? <CreateWebhook eventTypes={eventTypes} /> : null}
      <Card title="Subscriptions" id="subscriptions">
        {data.data.length === 0 ? (
          <EmptyState title="No subscriptions">Add an endpoint, or leave the URL empty for a managed inbox.</EmptyState>
        ) : (
          <>
            <Table caption="Webhook subscriptions">
              <thead>
                <tr>
                  <Th>Endpoint</Th>
                  <Th>Events</Th>
                  <Th>Status</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.data.map((s) => (
                  <tr key={s.id} data-testid="webhook-row">
                    <Td className="max-w-xs truncate">
                      <Link href={`/dashboard/webhooks/${s.id}`} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                        {s.managed ? "Managed inbox" : s.url}
                      </Link>
                      {s.managed ? (
                        <Badge tone="blue" className="ml-2">
                          inbox
                        </Badge>
                      ) : null}
                    </Td>
                    <Td className="whitespace-normal text-xs">{s.events.join(", ")}</Td>
                    <Td>
                      <StatusBadge status={s.status} />
                    </Td>
                    <Td className="text-slate-600">{formatDateTime(s.createdAt)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pagination pagination={data.pagination} href={(o) => `/dashboard/webhooks?offset=${o}`} label="Subscription pages" />
          </>
        )}
      </Card>
    </>
  );
}

function CreateWebhook({ eventTypes }: { eventTypes: string[] }) {
  const create = useDashboardMutation(createWebhookAction);
  const [events, setEvents] = useState<string[]>(["*"]);
  const [shown, setShown] = useState<string | null>(null);
  const result = create.data;
  const error = actionError(result, create.error);
  const created = result?.ok && result.data.id !== shown ? result.data : null;
  const paramError = (p: string) => (error && (error.param === p || error.param?.startsWith(`${p}[`)) ? error.message : undefined);
  return (
    <Card className="mb-6" title="Add a subscription" id="create-webhook">
      {created ? (
        <div className="mb-4 space-y-2">
          <SecretReveal label="Signing secret" secret={created.secret} onDone={() => setShown(created.id)} />
          <Link href={`/dashboard/webhooks/${created.id}`} className="text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
            Open the new subscription
          </Link>
        </div>
      ) : null}
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const url = String(new FormData(form).get("url") ?? "");
          create.mutate([{ url, events }], {
            onSuccess: (r) => {
              if (!r.ok) return;
              form.reset();
              setEvents(["*"]);
            },
          });
        }}
      >
        <Field label="Endpoint URL" hint="https://… in production. Leave empty for a managed inbox you can read here." error={paramError("url")}>
          {(p) => <Input {...p} name="url" type="url" inputMode="url" placeholder="https://example.com/webhooks" autoComplete="off" />}
        </Field>
        <EventPicker eventTypes={eventTypes} value={events} onChange={setEvents} error={paramError("events")} />
        {error && !paramError("url") && !paramError("events") ? <FormError message={error.message} /> : null}
        <Button type="submit" busy={create.isPending}>
          Add subscription
        </Button>
      </form>
    </Card>
  );
}
