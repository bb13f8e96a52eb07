"use client";
// The overview's 30-day charts (recharts). Each chart has a text summary and a table fallback
// for screen readers; the SVG itself is hidden from them.
import { Area, AreaChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DailyPoint } from "@/lib/dashboard/queries";
import { formatMoney } from "@/components/ui/money";

const short = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

function SrTable({ caption, rows }: { caption: string; rows: Array<[string, string]> }) {
  return (
    <table className="sr-only">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([d, v]) => (
          <tr key={d}>
            <td>{d}</td>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function VolumeChart({ series }: { series: DailyPoint[] }) {
  const total = series.reduce((s, p) => s + p.volume, 0);
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-slate-600">
        {formatMoney(Math.round(total * 100) / 100, "USD")} completed in the last 30 days
      </figcaption>
      <div aria-hidden className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart accessibilityLayer={false} data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="day" tickFormatter={short} tick={{ fontSize: 11, fill: "#475569" }} minTickGap={24} />
            <YAxis tick={{ fontSize: 11, fill: "#475569" }} width={56} />
            <Tooltip formatter={(v) => formatMoney(Number(v), "USD")} labelFormatter={(l) => short(String(l))} />
            <Area type="monotone" dataKey="volume" name="Volume" stroke="#4f46e5" fill="#c7d2fe" isAnimationActive={false} />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <SrTable caption="Completed volume per day (USD)" rows={series.map((p) => [p.day, formatMoney(p.volume, "USD")])} />
    </figure>
  );
}

export function SuccessRateChart({ series }: { series: DailyPoint[] }) {
  const n = series.reduce((s, p) => s + p.payments, 0);
  const ok = series.reduce((s, p) => s + p.succeeded, 0);
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-slate-600">{n ? `${Math.round((ok / n) * 1000) / 10}% of ${n} payments succeeded` : "No payments in the last 30 days"}</figcaption>
      <div aria-hidden className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="day" tickFormatter={short} tick={{ fontSize: 11, fill: "#475569" }} minTickGap={24} />
            <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11, fill: "#475569" }} width={48} />
            <Tooltip formatter={(v) => `${v}%`} labelFormatter={(l) => short(String(l))} />
            <Line type="monotone" dataKey="successRate" name="Success rate" stroke="#059669" connectNulls dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <SrTable caption="Success rate per day" rows={series.map((p) => [p.day, p.successRate === null ? "no payments" : `${p.successRate}%`])} />
    </figure>
  );
}
