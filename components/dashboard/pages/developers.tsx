"use client";
import Link from "next/link";
import { useState } from "react";
import { rollSecretKeyAction } from "@/app/dashboard/actions";
import { useDashboardMutation, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { FormError } from "@/components/ui/field";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/components/ui/money";
import { TestCascadeCard } from "@/components/dashboard/test-cascade-card";

type Key = { id: string; shopId: string | null; shopName: string; publishableKey: string; secretPreview: string; rolledAt: string | null; createdAt: string };
type RequestRow = { id: string; method: string; path: string; status: number; requestId: string; keyId: string; durationMs: number; createdAt: string };

export function DevelopersView({ environment, initialKeys, initialRequests, canRoll, canTestCascade = false }: { environment: string; initialKeys: Key[]; initialRequests: RequestRow[]; canRoll: boolean; canTestCascade?: boolean }) {
  const keys = useLiveData<Key[]>(environment, "keys", {}, initialKeys, false);
  const requests = useLiveData<RequestRow[]>(environment, "requests", {}, initialRequests, 3_000);
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
        <Card title="Recent API requests" id="requests" actions={<span className="text-xs text-slate-600">Live · last 7 days</span>}>
          {requests.data.length === 0 ? (
            <EmptyState title="No requests yet">Calls with this environment&apos;s keys appear here within a second.</EmptyState>
          ) : (
            <Table caption="Recent API requests, newest first">
              <thead>
                <tr>
                  <Th>Status</Th>
                  <Th>Request</Th>
                  <Th>Request id</Th>
                  <Th>Key</Th>
                  <Th className="text-right">Time</Th>
                  <Th>When</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {requests.data.map((r) => (
                  <tr key={r.id} data-testid="request-row">
                    <Td>
                      <Badge tone={r.status < 300 ? "green" : r.status < 500 ? "yellow" : "red"}>{r.status}</Badge>
                    </Td>
                    <Td className="font-mono text-xs">
                      {r.method} {r.path}
                    </Td>
                    <Td className="font-mono text-xs">{r.requestId}</Td>
                    <Td className="font-mono text-xs">{r.keyId}</Td>
                    <Td className="text-right tabular-nums">{r.durationMs} ms</Td>
                    <Td className="text-slate-600">{formatDateTime(r.createdAt)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}
