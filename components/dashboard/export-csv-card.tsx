"use client";
// "Export CSV": the streamed exports of GET /api/v1/exports/… for the signed-in merchant, as a download.
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";

const RESOURCES = [
  ["payments", "Payments"],
  ["ledger", "Ledger movements"],
  ["payouts", "Payouts"],
  ["claims", "Refunds and chargebacks"],
  ["settlements", "Settlements"],
] as const;

const day = (d: Date) => d.toISOString().slice(0, 10);

export function ExportCsvCard({ initial = "payments" }: { initial?: (typeof RESOURCES)[number][0] }) {
  const [resource, setResource] = useState<string>(initial);
  const [from, setFrom] = useState(day(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(day(new Date()));
  const href = `/dashboard/api/export/${resource}.csv?${new URLSearchParams({ from, to })}`;
  return (
    <Card title="Export CSV" id="export">
      <div className="grid items-end gap-3 sm:grid-cols-4">
        <Field label="What">
          {(p) => (
            <Select {...p} value={resource} onChange={(e) => setResource(e.target.value)}>
              {RESOURCES.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="From">{(p) => <Input {...p} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}</Field>
        <Field label="To">{(p) => <Input {...p} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}</Field>
        <a href={href} download className="inline-flex min-h-10 items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-semibold text-white hover:bg-indigo-700">
          Download CSV
        </a>
      </div>
      <p className="mt-2 text-xs text-slate-600">Days are read in your merchant time zone; the file streams, however many rows.</p>
    </Card>
  );
}
