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

type Envelope = LoaderData<"payments">;

export function PaymentsView({ environment, params, initial, error }: { environment: string; params: Record<string, string>; initial: Envelope | null; error?: { message: string; param?: string } }) {
  const q = useDashboardData(environment, "payments", params, { initialData: initial ?? undefined, refetchInterval: 3_000, enabled: !error });
  const fieldError = (name: string) => (error?.param === name ? error.message : undefined);
  const href = (offset: number) => `/dashboard/payments?${new URLSearchParams({ ...params, offset: String(offset) })}`;
  const filtered = Object.keys(params).some((k) => k !== "limit" && k !== "offset");
  return (
    <>
      <PageHeader title="Payments" description="Every pay-in, newest first. Updates live." />
      <div className="mb-6">
        <ExportCsvCard />
      </div>
      <Card className="mb-6" title="Filter" id="filters">
        <form method="get" action="/dashboard/payments" role="search" aria-label="Filter payments" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-6">
          <Field label="Order id (merchantOrderId)" error={fieldError("merchantOrderId")} className="lg:col-span-2">
            {(p) => <Input {...p} name="merchantOrderId" type="search" defaultValue={params.merchantOrderId} placeholder="order-1234" />}
          </Field>
          <Field label="Status" error={fieldError("status")}>
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">Any</option>
                {TRANSACTION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Method" error={fieldError("method")}>
            {(p) => (
              <Select {...p} name="method" defaultValue={params.method ?? ""}>
                <option value="">Any</option>
                {METHOD_SLUGS.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Payment method id" error={fieldError("paymentMethodId")}>
            {(p) => <Input {...p} name="paymentMethodId" defaultValue={params.paymentMethodId} placeholder="sbx_pix" />}
          </Field>
          <Field label="Country" error={fieldError("country")} hint="ISO-2 or ISO-3">
            {(p) => <Input {...p} name="country" defaultValue={params.country} maxLength={3} placeholder="BR" />}
          </Field>
          <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-6">
            <Button type="submit">Apply filters</Button>
            {filtered ? (
              <Link href="/dashboard/payments" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </Card>
      {error && !error.param ? <FormError message={error.message} /> : null}
      <Card title="Results" id="results">
        {error ? (
          <EmptyState title="Fix the filters above to see payments." />
        ) : q.isPending ? (
          <Loading />
        ) : q.data && q.data.data.length > 0 ? (
          <>
            <PaymentRows payments={q.data.data} caption="Payments" />
            <Pagination pagination={q.data.pagination} href={href} label="Payments pages" />
          </>
        ) : (
          <EmptyState title={filtered ? "No payments match these filters" : "No payments yet"}>{filtered ? "Try fewer filters." : "Create one with POST /api/v1/payments."}</EmptyState>
        )}
      </Card>
    </>
  );
}
