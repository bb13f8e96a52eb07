"use client";
import Link from "next/link";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/badge";
import { Money, formatDateTime } from "@/components/ui/money";
import { CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/schema";

type Claim = { id: string; kind: string; status: string; transactionId: string; amount: number; amountUsd: number; currency: string; reason: string | null; createdAt: string; resolvedAt: string | null; dueBy: string | null; history: Array<{ status: string; at: string }> };
type Envelope = { data: Claim[]; pagination?: { total: number; limit: number; offset: number; pages: number } };

export function ClaimsView({ environment, params, initial }: { environment: string; params: Record<string, string>; initial: Envelope }) {
  const { data } = useLiveData<Envelope>(environment, "claims", params, initial, 3_000);
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/claims?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  return (
    <>
      <PageHeader title="Claims" description="Refunds and chargebacks, with every status they went through." />
      <Card className="mb-6" title="Filter" id="claim-filters">
        <form method="get" action="/dashboard/claims" aria-label="Filter claims" className="flex flex-wrap items-end gap-4">
          <Field label="Kind">
            {(p) => (
              <Select {...p} name="kind" defaultValue={params.kind ?? ""}>
                <option value="">Any</option>
                {CLAIM_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k === "user_dispute" ? "refund" : k}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Status">
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">Any</option>
                {CLAIM_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit">Apply</Button>
        </form>
      </Card>
      <Card title="Claims" id="claims-list">
        {data.data.length === 0 ? (
          <EmptyState title="No claims">Refunds you issue and chargebacks buyers open appear here.</EmptyState>
        ) : (
          <>
            <Table caption="Claims, newest first">
              <thead>
                <tr>
                  <Th>Claim</Th>
                  <Th>Kind</Th>
                  <Th className="text-right">Amount</Th>
                  <Th className="text-right">USD</Th>
                  <Th>Status</Th>
                  <Th>History</Th>
                  <Th>Reason</Th>
                  <Th>Payment</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.data.map((c) => (
                  <tr key={c.id} data-testid="claim-row">
                    <Td>
                      <Link className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href={`/dashboard/claims/${c.id}`}>
                        {c.id}
                      </Link>
                    </Td>
                    <Td>
                      {c.kind === "chargeback" ? "Chargeback" : "Refund"}
                      {c.kind === "chargeback" && c.status === "open" && c.dueBy ? <span className="block text-xs text-slate-600">evidence due {formatDateTime(c.dueBy)}</span> : null}
                    </Td>
                    <Td className="text-right">
                      <Money amount={c.amount} currency={c.currency} />
                    </Td>
                    <Td className="text-right text-slate-600">
                      <Money amount={c.amountUsd} currency="USD" />
                    </Td>
                    <Td>
                      <StatusBadge status={c.status} />
                    </Td>
                    <Td className="whitespace-normal">
                      <ol className="flex flex-wrap gap-x-2 text-xs text-slate-600" aria-label={`Status history of ${c.id}`}>
                        {c.history.map((h, i) => (
                          <li key={i}>
                            {i > 0 ? <span aria-hidden>→ </span> : null}
                            <span className="font-medium text-slate-800">{h.status}</span> <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                          </li>
                        ))}
                      </ol>
                    </Td>
                    <Td>{c.reason ?? "—"}</Td>
                    <Td>
                      <Link className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900" href={`/dashboard/payments/${c.transactionId}`}>
                        {c.transactionId}
                      </Link>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pagination pagination={data.pagination} href={href} label="Claims pages" />
          </>
        )}
      </Card>
    </>
  );
}
