"use client";
import type { LoaderData } from "@/server/dashboard-loaders";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteWebhookAction, replayDeliveryAction, rotateWebhookSecretAction, updateWebhookAction } from "@/server/actions/webhooks";
import type { ActionError, ActionResult } from "@/lib/dashboard/action-result";
import { useDashboardData, useDashboardMutation } from "@/components/dashboard/use-dashboard-data";
import { EventPicker } from "@/components/dashboard/event-picker";
import type { Subscription } from "@/components/dashboard/pages/webhooks";
import { Card, DescriptionList, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { FormError, Field, Select } from "@/components/ui/field";
import { EmptyState, Loading } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { JsonView } from "@/components/ui/json-view";
import { PagerButtons } from "@/components/ui/pagination";
import { CopyButton } from "@/components/ui/copy-button";
import { IdDetail } from "@/components/ui/id-detail";
import { useTimes } from "@/components/ui/time-zone";
import { STATUS_WORDS } from "@/components/dashboard/status-words";
import { Term } from "@/components/ui/term";
import { eventWord, eventsInWords } from "@/components/dashboard/event-words";
import { TestEventCard } from "@/components/dashboard/test-event-card";

type Page<T> = { data: T[]; pagination?: { total: number; limit: number; offset: number; pages: number } };
type Delivery = { id: string; eventId: string; event: string; status: string; attempts: number; responseStatus: number | null; responseBody: string | null; durationMs: number | null; nextAttemptAt: string | null; createdAt: string; payload: unknown };
type InboxMessage = { id: string; deliveryId: string; event: string; payload: unknown; receivedAt: string };

type Props = {
  environment: string;
  subscription: Subscription;
  initialDeliveries: LoaderData<"deliveries">;
  initialInbox: LoaderData<"inbox"> | null;
  eventTypes: string[];
  canManage: boolean;
  canSeeSecrets: boolean;
  /** Sandbox, staff: "Send a test event" (its action is refused in production anyway). */
  canSendTest?: boolean;
};

export function WebhookDetailView({ environment, subscription, initialDeliveries, initialInbox, eventTypes, canManage, canSeeSecrets, canSendTest = false }: Props) {
  const { formatDateTime } = useTimes();
  const router = useRouter();
  const [sub, setSub] = useState(subscription);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  const onResult = <T,>(then: (data: T) => void) => (r: ActionResult<T>) => {
    setError(r.ok ? null : r.error);
    if (r.ok) then(r.data);
  };
  const rotate = useDashboardMutation(rotateWebhookSecretAction);
  const update = useDashboardMutation(updateWebhookAction);
  const remove = useDashboardMutation(deleteWebhookAction);
  const pending = rotate.isPending || update.isPending || remove.isPending;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/dashboard/webhooks" className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
          Webhooks
        </Link>{" "}
        / <span aria-current="page">{sub.managed ? "Managed inbox" : "Endpoint"}</span>
      </nav>
      <PageHeader
        title={sub.managed ? "Managed inbox" : sub.url}
        description={
          <div className="flex flex-wrap items-start gap-2">
            <StatusBadge of="webhook" status={sub.status} /> <IdDetail id={sub.id} />
          </div>
        }
        actions={
          canManage ? (
            <>
              {canSeeSecrets ? (
                <Button
                  variant="secondary"
                  busy={pending}
                  onClick={() => rotate.mutate([sub.id], { onSuccess: onResult((d) => setSecret(d.secret)) })}
                >
                  Rotate secret
                </Button>
              ) : null}
              <Button
                variant="secondary"
                busy={pending}
                onClick={() => update.mutate([sub.id, { status: sub.status === "enabled" ? "disabled" : "enabled" }], { onSuccess: onResult(setSub) })}
              >
                {sub.status === "enabled" ? "Disable" : "Enable"}
              </Button>
              <Button
                variant="danger"
                busy={pending}
                onClick={() => {
                  if (!window.confirm("Delete this subscription? Deliveries stop at once.")) return;
                  remove.mutate([sub.id], { onSuccess: onResult(() => router.push("/dashboard/webhooks")) });
                }}
              >
                Delete
              </Button>
            </>
          ) : null
        }
      />
      <div className="space-y-6">
        {secret ? <SecretReveal label="New signing secret (the previous one keeps signing for 24 hours)" secret={secret} onDone={() => setSecret(null)} /> : null}
        <FormError message={error?.message} />
        <Card title="Subscription" id="subscription">
          <DescriptionList
            items={[
              [
                "Endpoint",
                <span key="u" className="flex flex-wrap items-center gap-2">
                  <span className="break-all font-mono text-xs">{sub.url}</span> <CopyButton value={sub.url} label="Copy URL" />
                </span>,
              ],
              ["Created", formatDateTime(sub.createdAt)],
              ["Updated", formatDateTime(sub.updatedAt)],
              ["Events", eventsInWords(sub.events)],
            ]}
          />
          {canManage ? <EditEvents sub={sub} eventTypes={eventTypes} onSaved={setSub} /> : null}
        </Card>
        {canSendTest && environment === "sandbox" ? <TestEventCard id={sub.id} enabled={sub.status === "enabled"} /> : null}
        {sub.managed && initialInbox ? <Inbox environment={environment} id={sub.id} initial={initialInbox} /> : null}
        <Deliveries environment={environment} id={sub.id} initial={initialDeliveries} canReplay={canManage} />
      </div>
    </>
  );
}

function EditEvents({ sub, eventTypes, onSaved }: { sub: Subscription; eventTypes: string[]; onSaved: (s: Subscription) => void }) {
  const [events, setEvents] = useState(sub.events);
  const save = useDashboardMutation(updateWebhookAction);
  const error = save.data && !save.data.ok ? save.data.error : null;
  return (
    <form
      className="mt-6 space-y-3 border-t border-slate-100 pt-4"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate([sub.id, { events }], { onSuccess: (r) => r.ok && onSaved(r.data) });
      }}
    >
      <EventPicker legend="Edit events" eventTypes={eventTypes} value={events} onChange={setEvents} error={error?.param?.startsWith("events") ? error.message : undefined} />
      {error && !error.param?.startsWith("events") ? <FormError message={error.message} /> : null}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="secondary" busy={save.isPending}>
          Save events
        </Button>
        {save.data?.ok && !save.isPending ? (
          <span role="status" className="text-sm text-emerald-800">
            Saved
          </span>
        ) : null}
      </div>
    </form>
  );
}

function Inbox({ environment, id, initial }: { environment: string; id: string; initial: LoaderData<"inbox"> }) {
  const { formatDateTime } = useTimes();
  const [offset, setOffset] = useState(0);
  const q = useDashboardData(environment, "inbox", { id, limit: 20, offset }, { initialData: offset === 0 ? initial : undefined, refetchInterval: 2_000 });
  const data = q.data;
  if (!data) return <Card title="Managed inbox" id="inbox"><Loading /></Card>;
  return (
    <Card title="Managed inbox" id="inbox" actions={<span className="text-xs text-slate-600">Live · newest first · {data.pagination?.total ?? data.data.length} received</span>}>
      {data.data.length === 0 ? (
        <EmptyState title="Nothing received yet">Events delivered to this inbox appear here as they arrive.</EmptyState>
      ) : (
        <ul aria-live="polite" className="space-y-2">
          {data.data.map((m) => (
            <li key={m.id} data-testid="inbox-message">
              <details className="rounded-md border border-slate-200">
                <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-sm">
                  <span className="font-medium">
                    <Term tech={m.event}>{eventWord(m.event)}</Term>
                  </span>
                  <span className="text-xs text-slate-600">{formatDateTime(m.receivedAt)}</span>
                </summary>
                <div className="space-y-2 px-3 pb-3">
                  <IdDetail id={m.deliveryId} label="Delivery id" />
                  <JsonView value={m.payload} label={`Payload of ${m.id}`} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {q.data ? <PagerButtons pagination={q.data.pagination} onChange={setOffset} label="Inbox pages" /> : null}
    </Card>
  );
}

function Deliveries({ environment, id, initial, canReplay }: { environment: string; id: string; initial: LoaderData<"deliveries">; canReplay: boolean }) {
  const { formatDateTime } = useTimes();
  const [status, setStatus] = useState("");
  const [offset, setOffset] = useState(0);
  const first = !status && offset === 0;
  const params = { id, limit: 20, offset, ...(status ? { status } : {}) };
  const q = useDashboardData(environment, "deliveries", params, { initialData: first ? initial : undefined, refetchInterval: 2_000 });
  const replay = useDashboardMutation(replayDeliveryAction);
  const message = replay.data ? (replay.data.ok ? "Delivery queued for a new attempt." : replay.data.error.message) : null;
  return (
    <Card
      title="Delivery log"
      id="delivery-log"
      actions={
        <Field label="Status" className="flex items-center gap-2 [&>label]:mb-0">
          {(p) => (
            <Select
              {...p}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value);
                setOffset(0);
              }}
              className="w-36"
            >
              <option value="">Any</option>
              {Object.entries(STATUS_WORDS.delivery).map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </Select>
          )}
        </Field>
      }
    >
      {message ? (
        <p role="status" className="mb-3 text-sm text-slate-700">
          {message}
        </p>
      ) : null}
      {!q.data ? (
        <Loading />
      ) : q.data.data.length === 0 ? (
        <EmptyState title="No deliveries">Deliveries appear when events happen (a payment completing, a refund…).</EmptyState>
      ) : (
        <ul className="space-y-2">
          {q.data.data.map((d) => (
            <li key={d.id} data-testid="delivery-row">
              <details className="rounded-md border border-slate-200">
                <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-sm">
                  <StatusBadge of="delivery" status={d.status} />
                  <span className="font-medium">
                    <Term tech={d.event}>{eventWord(d.event)}</Term>
                  </span>
                  <Badge>{d.responseStatus ?? "no answer"}</Badge>
                  <span className="text-xs text-slate-600">
                    {d.attempts} attempt{d.attempts === 1 ? "" : "s"} · {d.durationMs ?? "—"} ms · {formatDateTime(d.createdAt)}
                  </span>
                </summary>
                <div className="grid gap-3 px-3 pb-3 lg:grid-cols-2">
                  {canReplay ? (
                    <div className="lg:col-span-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        busy={replay.isPending && replay.variables?.[1] === d.id}
                        onClick={() => replay.mutate([id, d.id])}
                      >
                        Replay
                      </Button>
                    </div>
                  ) : null}

                  <div className="min-w-0">
                    <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Request body</h3>
                    <JsonView value={d.payload} label={`Request body of ${d.id}`} />
                  </div>
                  <div className="min-w-0">
                    <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Response ({d.responseStatus ?? "none"})</h3>
                    <JsonView value={d.responseBody ?? ""} label={`Response body of ${d.id}`} />
                    {d.nextAttemptAt ? <p className="mt-1 text-xs text-slate-600">Next attempt {formatDateTime(d.nextAttemptAt)}</p> : null}
                  </div>
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {q.data ? <PagerButtons pagination={q.data.pagination} onChange={setOffset} label="Delivery log pages" /> : null}
    </Card>
  );
}
