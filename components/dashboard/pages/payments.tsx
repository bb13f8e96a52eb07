"use client";
import type { LoaderData } from "@/server/dashboard-loaders";
import { ExportCsvCard } from "@/components/dashboard/export-csv-card";
import Link from "next/link";
import { useDashboardData } from "@/components/dashboard/use-dashboard-data";
import { PaymentRows, type PaymentRow } from "@/components/dashboard/payment-rows";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { TRANSACTION_STATUSES } from "@/lib/payments/schema";
import { METHOD_SLUGS } from "@/lib/catalog/schema";
import { toIso3 } from "@/lib/rails/rails";
import { METHOD_LABELS, PAYMENT_COUNTRIES, STATUS_LABELS, countryName, filterProblem, railsFor } from "@/components/dashboard/payment-labels";
import { methodName } from "@/components/dashboard/plain-words";

type Envelope = LoaderData<"payments">;

export function PaymentsView({ environment, params, initial, error }: { environment: string; params: Record<string, string>; initial: Envelope | null; error?: { message: string; param?: string } }) {
  const q = useDashboardData(environment, "payments", params, { initialData: initial ?? undefined, refetchInterval: 3_000, enabled: !error });
  // The API's message names parameters and zod's wording: the page says it in plain words.
  const problem = error ? filterProblem(error.param, params) : null;
  const fieldError = (name: string) => (problem?.field === name ? problem.message : undefined);
  const href = (offset: number) => `/dashboard/payments?${new URLSearchParams({ ...params, offset: String(offset) })}`;
  const filtered = Object.keys(params).some((k) => k !== "limit" && k !== "offset");
  const moreSet = ["status", "method", "paymentMethodId", "country"].some((k) => params[k]);
  const rails = railsFor(environment);
  const country = params.country ? (toIso3(params.country) ?? "") : "";
  return (
    <>
      <PageHeader title="Payments" description="Every pay-in, newest first. Updates live." />
      {/* The page opens on its results: the search stays in view, the other filters and the
          export are folded (the filters open by themselves while one is set or wrong). */}
      <form method="get" action="/dashboard/payments" role="search" aria-label="Filter payments" className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-start gap-3">
          <Field
            label="Search"
            error={fieldError("q")}
            className="min-w-0 flex-1 basis-72"
            hint="Order id or its start, customer e-mail or its start, customer name (the start of each word), payment id, or an amount such as 499.00. Case and accents do not matter."
          >
            {(p) => <Input {...p} name="q" type="search" defaultValue={params.q} maxLength={200} placeholder="order-1234, ana@example.com, Ana Souza, 499.00, tx_…" />}
          </Field>
          <div className="mt-6 flex items-center gap-2">
            <Button type="submit">Apply filters</Button>
            {filtered ? (
              <Link href="/dashboard/payments" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                Clear
              </Link>
            ) : null}
          </div>
        </div>
        {params.merchantOrderId ? <input type="hidden" name="merchantOrderId" value={params.merchantOrderId} /> : null}
        <details open={moreSet || (problem !== null && problem.field !== "q")} className="mt-1" id="filters">
          <summary className="cursor-pointer text-sm font-medium text-indigo-700 hover:text-indigo-900">More filters{moreSet ? " (some are set)" : ""}</summary>
          <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-6">
            <Field label="Status" error={fieldError("status")}>
              {(p) => (
                <Select {...p} name="status" defaultValue={params.status ?? ""}>
                  <option value="">Any</option>
                  {TRANSACTION_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {STATUS_LABELS[s]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Method type" error={fieldError("method")}>
              {(p) => (
                <Select {...p} name="method" defaultValue={params.method ?? ""}>
                  <option value="">Any</option>
                  {METHOD_SLUGS.map((s) => (
                    <option key={s} value={s}>
                      {METHOD_LABELS[s]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Payment method" error={fieldError("paymentMethodId")} className="lg:col-span-2">
              {(p) => (
                <Select {...p} name="paymentMethodId" defaultValue={params.paymentMethodId ?? ""}>
                  <option value="">Any</option>
                  {params.paymentMethodId && !rails.some((r) => r.paymentMethodId === params.paymentMethodId) ? <option value={params.paymentMethodId}>{params.paymentMethodId}</option> : null}
                  {rails.map((r) => (
                    <option key={r.paymentMethodId} value={r.paymentMethodId}>
                      {methodName(r.name)} · {countryName(r.countryIso3)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Country" error={fieldError("country")} className="lg:col-span-2">
              {(p) => (
                <Select {...p} name="country" defaultValue={country}>
                  <option value="">Any</option>
                  {PAYMENT_COUNTRIES.map((c) => (
                    <option key={c.iso3} value={c.iso3}>
                      {c.name}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
        </details>
      </form>
      <details className="mb-6" id="export-csv">
        <summary className="cursor-pointer text-sm font-medium text-indigo-700 hover:text-indigo-900">Export payments, ledger, payouts, claims or settlements as CSV</summary>
        <div className="mt-3">
          <ExportCsvCard />
        </div>
      </details>
      {problem && !problem.field ? <FormError message={problem.message} /> : null}
      <Card title="Results" id="results">
        {problem ? (
          <EmptyState title="Fix the filters above to see payments." />
        ) : q.isPending ? (
          <Loading />
        ) : q.data && q.data.data.length > 0 ? (
          <>
            <PaymentRows payments={q.data.data} caption="Payments" />
            <Pagination pagination={q.data.pagination} href={href} label="Payments pages" />
          </>
        ) : (
          <EmptyState title={filtered ? "No payments match these filters" : "No payments yet"}>{filtered ? "Try fewer filters, or search by another part of the payment." : "Create one with POST /api/v1/payments."}</EmptyState>
        )}
      </Card>
    </>
  );
}
