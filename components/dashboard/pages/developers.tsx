"use client";
import Link from "next/link";
import { useState } from "react";
import { rollSecretKeyAction } from "@/server/actions/keys";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useDashboardData, useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { JsonView } from "@/components/ui/json-view";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { FormError } from "@/components/ui/field";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { useTimes } from "@/components/ui/time-zone";
import { TestCascadeCard } from "@/components/dashboard/test-cascade-card";

type Key = { id: string; shopId: string | null; shopName: string; publishableKey: string; secretPreview: string; rolledAt: string | null; createdAt: string };
type RequestRow = LoaderData<"requests">[number];

export function DevelopersView({ environment, initialKeys, initialRequests, canRoll, canTestCascade = false }: { environment: string; initialKeys: Key[]; initialRequests: RequestRow[]; canRoll: boolean; canTestCascade?: boolean }) {
  const { formatDateTime } = useTimes();
  const keys = useLiveData(environment, "keys", {}, initialKeys, false);
  const requests = useLiveData(environment, "requests", {}, initialRequests, 3_000);
  const roll = useDashboardMutation(rollSecretKeyAction);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const result = roll.data;
  const rolled = result?.ok && result.data.secretKey !== dismissed ? result.data.secretKey : null;
  const error = result && !result.ok ? result.error.message : (roll.error?.message ?? null);
  return (
    <>
      <PageHeader
        title="Developers"
        description={`API keys and recent requests (${environment}).`}
        actions={
          <>
            <Link href="/dashboard/api-reference" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
              API reference
            </Link>
            <a href="/api/v1/openapi.json" className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
              openapi.json
            </a>
          </>
        }
      />
      <div className="space-y-6">
        {rolled ? <SecretReveal label="New secret key (the previous one has stopped working)" secret={rolled} onDone={() => setDismissed(rolled)} /> : null}
        <FormError message={error} />
        {canTestCascade ? <TestCascadeCard /> : null}
        <Card title="API keys" id="keys">
          {keys.data.length === 0 ? (
            <EmptyState title="No keys in this environment" />
          ) : (
            <Table caption="API keys by shop">
              <thead>
                <tr>
                  <Th>Shop</Th>
                  <Th>Publishable key</Th>
                  <Th>Secret key</Th>
                  <Th>Last rolled</Th>
                  {canRoll ? (
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  ) : null}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {keys.data.map((k) => (
                  <tr key={k.id}>
                    <Td>{k.shopName}</Td>
                    <Td>
                      <span className="flex items-center gap-2">
                        <code className="font-mono text-xs">{k.publishableKey}</code>
                        <CopyButton value={k.publishableKey} />
                      </span>
                    </Td>
                    <Td>
                      <code className="font-mono text-xs">{k.secretPreview}</code>
                    </Td>
                    <Td className="text-slate-600">{k.rolledAt ? formatDateTime(k.rolledAt) : "never"}</Td>
                    {canRoll ? (
                      <Td>
                        {k.shopId ? (
                          <Button
                            size="sm"
                            variant="danger"
                            busy={roll.isPending && roll.variables?.[0] === k.id}
                            onClick={() => {
                              if (!window.confirm("Roll this secret key? The current one stops working at once, and so do tokens issued with it.")) return;
                              roll.mutate([k.id]);
                            }}
                          >
                            Roll secret key
                          </Button>
                        ) : null}
                      </Td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <p className="mt-3 text-xs text-slate-600">Secret keys are stored only as hashes: a new one is shown once, when it is rolled.</p>
        </Card>
        <RequestLog environment={environment} initial={initialRequests} />
      </div>
    </>
  );
}

/**
 * The request log, live, as Stripe's: each row opens (button, or a click on the row) to show the
 * request's facts and the answer it got, with secrets redacted when it was logged.
 */
function RequestLog({ environment, initial }: { environment: string; initial: RequestRow[] }) {
  const { formatDateTime } = useTimes();
  const requests = useLiveData(environment, "requests", {}, initial, 3_000);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <Card title="Recent API requests" id="requests" actions={<span className="text-xs text-slate-600">Live · last 7 days</span>}>
      <ResourceTable
        caption="Recent API requests, newest first"
        rows={requests.data}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ "data-testid": "request-row", "aria-selected": r.id === openId ? "true" : undefined })}
        empty={{ title: "No requests yet", body: "Calls with this environment's keys appear here within a second." }}
        columns={[
          {
            header: "Request",
            wrap: true,
            cell: (r) => (
              <button type="button" className="text-left font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900" aria-expanded={r.id === openId} aria-controls="request-detail" onClick={() => setOpenId(r.id === openId ? null : r.id)}>
                {r.method} {r.path}
              </button>
            ),
          },
          { header: "Status", cell: (r) => <Badge tone={r.status < 300 ? "green" : r.status < 500 ? "yellow" : "red"}>{r.status}</Badge> },
          { header: "Time", align: "right", cell: (r) => <span className="tabular-nums">{r.durationMs} ms</span> },
          { header: "When", wrap: true, cell: (r) => <span className="text-slate-600">{formatDateTime(r.createdAt)}</span> },
        ]}
      />
      {openId ? <RequestDetail environment={environment} id={openId} onClose={() => setOpenId(null)} /> : null}
    </Card>
  );
}

function RequestDetail({ environment, id, onClose }: { environment: string; id: string; onClose: () => void }) {
  const { formatDateTime } = useTimes();
  const q = useDashboardData(environment, "request", { id });
  const r = q.data?.request;
  return (
    <section id="request-detail" aria-label="Request details" className="mt-4 rounded-md border border-slate-200 p-3">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="font-mono text-sm font-semibold">{r ? `${r.method} ${r.path}` : "Loading…"}</h3>
        <Button size="sm" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
      {q.error ? <FormError message={q.error.message} /> : null}
      {r ? (
        <>
          <dl className="mb-3 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-xs text-slate-600">Status</dt>
              <dd>{r.status}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Request id</dt>
              <dd className="flex items-center gap-2 break-all font-mono text-xs">
                {r.requestId} <CopyButton value={r.requestId} label="Copy" />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">Key</dt>
              <dd className="break-all font-mono text-xs">{r.keyId}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-600">When · duration</dt>
              <dd>
                {formatDateTime(r.createdAt)} · {r.durationMs} ms
              </dd>
            </div>
          </dl>
          {r.answer === null ? <p className="text-sm text-slate-600">No JSON answer was kept for this request (a file, or a request logged before answers were kept).</p> : <JsonView value={r.answer} label="Answer" />}
        </>
      ) : null}
    </section>
  );
}
