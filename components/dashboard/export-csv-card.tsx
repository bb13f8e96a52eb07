"use client";
// "Export CSV": the streamed exports of GET /api/v1/exports/… for the signed-in merchant, as a download.
import { useState, useSyncExternalStore } from "react";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { useTimes } from "@/components/ui/time-zone";
import { calendarDay, daysBefore } from "@/lib/platform/format/date-time";

const RESOURCES = [
  ["payments", "Payments"],
  ["ledger", "Ledger movements"],
  ["payouts", "Payouts"],
  ["claims", "Refunds and chargebacks"],
  ["settlements", "Settlements"],
] as const;

/** The days a new export covers: the last 30, today included. */
const DEFAULT_DAYS = 30;
// Checked once a minute, so a page left open past midnight offers the new day.
const everyMinute = (changed: () => void) => {
  const timer = setInterval(changed, 60_000);
  return () => clearInterval(timer);
};

/**
 * Today in the merchant's zone by the browser's clock. The server's render (and hydration) has
 * none: a day the server picked could differ from the browser's at midnight and leave the inputs
 * showing the server's; until then the link leaves the days out and the export's own default
 * (the same 30 days in the merchant's zone) applies.
 */
function useMerchantToday(timeZone: string): string | null {
  return useSyncExternalStore(
    everyMinute,
    () => calendarDay(Date.now(), timeZone),
    () => null,
  );
}

export function ExportCsvCard({ initial = "payments" }: { initial?: (typeof RESOURCES)[number][0] }) {
  const { timeZone } = useTimes();
  const today = useMerchantToday(timeZone);
  const [resource, setResource] = useState<string>(initial);
  // What the user typed; until then the merchant's last 30 days.
  const [fromTyped, setFrom] = useState<string | null>(null);
  const [toTyped, setTo] = useState<string | null>(null);
  const to = toTyped ?? today ?? "";
  const from = fromTyped ?? (today ? daysBefore(today, DEFAULT_DAYS - 1) : "");
  const days = Object.fromEntries(Object.entries({ from, to }).filter(([, v]) => v));
  const href = `/dashboard/api/export/${resource}.csv?${new URLSearchParams(days)}`;
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
