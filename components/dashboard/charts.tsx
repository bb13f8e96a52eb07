"use client";
// The overview's 30-day charts (recharts). Each chart has a text summary and a table fallback
// for screen readers; the SVG itself is hidden from them.
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DailyPoint } from "@/lib/dashboard/queries";
import type { SuccessRate } from "@/lib/dashboard/success-rate";
import { formatMoney } from "@/components/ui/money";

const short = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const percent = (rate: number) => `${rate}%`;

function SrTable({ caption, rows }: { caption: string; rows: Array<[string, string]> }) {
  // The clipping box is a div: a table ignores its 1px width and overflow, and on a phone a
  // "hidden" table wider than the screen made the whole page scroll sideways.
  return (
    <div className="sr-only">
      <table>
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
    </div>
  );
}

/**
 * A small tooltip box. Recharts keeps a tooltip inside the plot area only when it fits there;
 * a narrow box (fixed lines, no wrapping surprises) always fits, so it never spills onto the
 * next card. The chart's box also clips (overflow-hidden) as a last resort.
 */
function TipBox({ active, label, payload, lines }: { active?: boolean; label?: unknown; payload?: ReadonlyArray<{ payload?: unknown }>; lines: (p: DailyPoint) => ReactNode[] }) {
  const point = active ? (payload?.[0]?.payload as DailyPoint | undefined) : undefined;
  if (!point) return null;
  return (
    <div data-testid="chart-tooltip" className="rounded-md border border-slate-200 bg-white px-2.5 py-1.5 text-xs leading-5 text-slate-800 shadow-md">
      <p className="font-semibold text-slate-900">{short(String(label ?? point.day))}</p>
      {lines(point).map((l, i) => (
        <p key={i} className="whitespace-nowrap">
          {l}
        </p>
      ))}
    </div>
  );
}

function ChartBox({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div aria-hidden data-testid={testId} className="h-56 w-full overflow-hidden">
      {children}
    </div>
  );
}

const axisTick = { fontSize: 11, fill: "#475569" };

export function VolumeChart({ series }: { series: DailyPoint[] }) {
  const total = series.reduce((s, p) => s + p.volume, 0);
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-slate-600">{formatMoney(Math.round(total * 100) / 100, "USD")} paid in the last 30 days</figcaption>
      <ChartBox testId="volume-chart">
        <ResponsiveContainer width="100%" height="100%">
          {/* Bars, not an area: a single day with money is a visible bar, where an area or a
              line needs two points to draw anything. */}
          <BarChart accessibilityLayer={false} data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="day" tickFormatter={short} tick={axisTick} minTickGap={24} />
            <YAxis tick={axisTick} width={56} allowDecimals={false} />
            <Tooltip cursor={{ fill: "#eef2ff" }} offset={8} isAnimationActive={false} allowEscapeViewBox={{ x: false, y: false }} content={(p) => <TipBox {...p} lines={(d) => [`${formatMoney(d.volume, "USD")} paid`, `${d.succeeded} ${d.succeeded === 1 ? "payment" : "payments"}`]} />} />
            <Bar dataKey="volume" name="Volume" fill="#4f46e5" maxBarSize={28} minPointSize={(v) => (Number(v) > 0 ? 2 : 0)} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartBox>
      <SrTable caption="Paid volume per day (USD)" rows={series.map((p) => [p.day, formatMoney(p.volume, "USD")])} />
    </figure>
  );
}

/** "1 of 2 finished payments": the basis of a rate (pending payments are not part of it). */
export function rateBasis(o: { succeeded: number; failed: number }) {
  const finished = o.succeeded + o.failed;
  return `${o.succeeded} of ${finished} finished ${finished === 1 ? "payment" : "payments"}`;
}

export function SuccessRateChart({ series, outcomes }: { series: DailyPoint[]; outcomes: SuccessRate }) {
  return (
    <figure>
      <figcaption className="mb-2 text-sm text-slate-600" data-testid="success-summary">
        {outcomes.rate === null ? (
          outcomes.pending ? "No payment has finished yet in the last 30 days" : "No payments in the last 30 days"
        ) : (
          <>
            <span className="text-base font-semibold text-slate-900">
              {percent(outcomes.rate)} of {outcomes.finished}
            </span>{" "}
            finished {outcomes.finished === 1 ? "payment" : "payments"} succeeded ({outcomes.succeeded} paid, {outcomes.failed} failed or expired)
          </>
        )}
        {/* What this counts, beside routing's approval (which counts each provider's answer, issue 41). */}
        <span className="mt-1 block" data-testid="success-basis">
          Counts each payment once, when it ends: paid, or failed or expired. Routing analytics&apos; approval counts something else: each time a provider agreed to take a payment, whether or not the buyer then paid.
        </span>
        {outcomes.pending ? (
          <span className="mt-1 block" data-testid="success-pending">
            <span className="font-medium text-slate-900">{outcomes.pending} pending</span>: not counted until the buyer pays or the payment expires
          </span>
        ) : null}
      </figcaption>
      <ChartBox testId="success-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={series} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="day" tickFormatter={short} tick={axisTick} minTickGap={24} />
            <YAxis domain={[0, 100]} unit="%" tick={axisTick} width={48} />
            {/* filterNull off: a day without a rate still answers ("No payments", "2 pending"). */}
            <Tooltip
              offset={8}
              isAnimationActive={false}
              filterNull={false}
              allowEscapeViewBox={{ x: false, y: false }}
              content={(p) => <TipBox {...p} lines={(d) => (d.successRate === null ? [d.pending ? `${d.pending} pending, none finished` : "No payments"] : [`${percent(d.successRate)} succeeded`, rateBasis(d), ...(d.pending ? [`${d.pending} pending`] : [])])} />}
            />
            {/* Dots on every day with a rate: a lone day is a visible point, not an empty line. */}
            <Line type="monotone" dataKey="successRate" name="Success rate" stroke="#059669" strokeWidth={2} connectNulls dot={{ r: 3.5, fill: "#059669", strokeWidth: 0 }} activeDot={{ r: 5 }} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </ChartBox>
      <SrTable caption="Success rate per day (pending payments not counted)" rows={series.map((p) => [p.day, p.successRate === null ? (p.pending ? `${p.pending} pending` : "no payments") : `${percent(p.successRate)} (${rateBasis(p)}${p.pending ? `, ${p.pending} pending` : ""})`])} />
    </figure>
  );
}
