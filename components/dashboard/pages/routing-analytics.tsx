"use client";
// Routing analytics: per provider and payment method, this merchant's attempts, approval rate,
// latency and provider cost; approvals over time; the share of payments the cascade rescued; and
// each provider's circuit (skipped while failing, probed after a cool-down).
import Link from "next/link";
import { providerName } from "@/components/dashboard/payment-labels";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { SubNav } from "@/components/dashboard/kit/sub-nav";
import { ROUTING_TABS, RoutingBadge } from "@/components/dashboard/pages/routing";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { Table, Td, Th, EmptyState } from "@/components/ui/table";
import { Money } from "@/components/ui/money";
import { cn } from "@/components/ui/cn";
import { Term } from "@/components/ui/term";
import { useTimes } from "@/components/ui/time-zone";
import { formatBucket } from "@/lib/platform/format/date-time";

type Analytics = LoaderData<"routing-analytics">;
const RANGES = ["24h", "7d", "30d"] as const;
const COLORS = ["#4f46e5", "#059669", "#d97706", "#dc2626", "#0891b2"];
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function RoutingAnalyticsView({ environment, initial, range }: { environment: string; initial: Analytics; range: (typeof RANGES)[number] }) {
  const { data } = useLiveData(environment, "routing-analytics", { range }, initial, 10_000);
  const { timeZone, zoneOffset } = useTimes();
  const providers = [...new Set(data.series.map((s) => s.provider))];
  const byTime = new Map<string, Record<string, number | string>>();
  for (const s of data.series) {
    // The query starts each hour and day in the merchant's zone; the label reads it there too.
    const row = byTime.get(s.at) ?? { at: formatBucket(s.at, data.bucket, timeZone) };
    row[s.provider] = s.attempts ? Math.round((s.approved / s.attempts) * 1000) / 10 : 0;
    byTime.set(s.at, row);
  }
  const points = [...byTime.values()];
  const totals = data.providers.reduce((t, p) => ({ attempts: t.attempts + p.attempts, approved: t.approved + p.approved }), { attempts: 0, approved: 0 });
  return (
    <>
      <PageHeader title="Routing" description="How your payments were routed: how often each provider was asked, how often it agreed to take the payment, how fast it answered and what it cost, and how often a payment another provider had refused was taken by the next one." />
      <SubNav label="Routing sections" tabs={ROUTING_TABS} />
      <nav aria-label="Period" className="mb-4 flex gap-2 text-sm">
        {RANGES.map((r) => (
          <Link key={r} href={`/dashboard/routing/analytics?range=${r}`} aria-current={r === range ? "page" : undefined} className={cn("rounded-md px-2.5 py-1 ring-1 ring-inset", r === range ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50")}>
            {r === "24h" ? "Last 24 hours" : r === "7d" ? "Last 7 days" : "Last 30 days"}
          </Link>
        ))}
      </nav>
      <dl aria-label="Routing totals" className="grid gap-4 sm:grid-cols-3 [&>*]:min-w-0">
        <Stat label="Times a provider was asked" tech="provider attempts" value={totals.attempts} hint="One payment may ask several providers in turn." />
        {/* Not the overview's success rate: a provider taking a payment is not the buyer paying it (issue 41). */}
        <Stat
          label="Taken by the provider asked"
          tech="approved attempts (outcome accepted)"
          value={totals.attempts ? pct(totals.approved / totals.attempts) : "—"}
          hint={
            <span data-testid="routing-approval-basis">
              {totals.approved} of {totals.attempts} times a provider was asked, it agreed to take the payment and gave the buyer a way to pay. Whether the buyer then paid is the overview&apos;s success rate.
            </span>
          }
        />
        <Stat label="Taken by a later provider" tech="rescued by the cascade" value={data.rescued.approved ? pct(data.rescued.share) : "—"} hint={`${data.rescued.rescued} of ${data.rescued.approved} payments taken by a provider had first been refused by another`} />
      </dl>
      <Card title="By provider" id="routing-providers" className="mt-6">
        {data.providers.length === 0 ? (
          <EmptyState title="No attempts in this period">Payments you create appear here with the providers that handled them.</EmptyState>
        ) : (
          <Table caption="Attempts by provider and payment method">
            <thead>
              <tr>
                <Th>Payment method</Th>
                <Th>Provider</Th>
                <Th className="text-right">Attempts</Th>
                <Th className="text-right">
                  <Term tech="approval rate (accepted attempts)">Taken</Term>
                </Th>
                <Th className="text-right">
                  <Term tech="latency: average / p95">Answer time (average / slowest 5 %)</Term>
                </Th>
                <Th className="text-right">Provider cost</Th>
              </tr>
            </thead>
            <tbody>
              {data.providers.map((p) => (
                <tr key={`${p.rail}-${p.provider}`} data-testid="routing-provider-row">
                  <Td>{p.railName}</Td>
                  <Td>{providerName(p.provider)}</Td>
                  <Td className="text-right tabular-nums">{p.attempts}</Td>
                  <Td className="text-right tabular-nums">{pct(p.approvalRate)}</Td>
                  <Td className="text-right tabular-nums">{p.avgLatencyMs === null ? "—" : `${p.avgLatencyMs} / ${p.p95LatencyMs} ms`}</Td>
                  <Td className="text-right">
                    <Money amount={p.costUsd} currency="USD" />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <Card title="Share taken by each provider, over time" id="routing-chart" className="mt-6">
        {points.length === 0 ? (
          <EmptyState title="Nothing to draw yet" />
        ) : (
          <>
            <p className="text-xs text-slate-600">
              {data.bucket === "hour" ? "By hour" : "By day"}, in your time zone ({zoneOffset()}).
            </p>
            {/* sr-only on a wrapper: a table keeps its content's width whatever its own width says,
                and an sr-only table with many providers widened the page on a tablet. */}
            <div className="sr-only">
              <table data-testid="routing-chart-table">
                <caption>Share of attempts each provider took {data.bucket === "hour" ? "by hour" : "by day"}; the table above gives the totals.</caption>
                <thead>
                  <tr>
                    <th scope="col">{data.bucket === "hour" ? "Hour" : "Day"}</th>
                    {providers.map((p) => (
                      <th key={p} scope="col">
                        {providerName(p)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {points.map((row) => (
                    <tr key={String(row.at)}>
                      <th scope="row">{row.at}</th>
                      {providers.map((p) => (
                        <td key={p}>{row[p] === undefined ? "—" : `${row[p]} %`}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div aria-hidden data-testid="routing-chart" className="h-64 w-full overflow-hidden">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                  <XAxis dataKey="at" tick={{ fontSize: 11, fill: "#475569" }} />
                  <YAxis domain={[0, 100]} tick={{ fontSize: 11, fill: "#475569" }} unit="%" />
                  <Tooltip />
                  <Legend />
                  {providers.map((p, i) => (
                    <Line key={p} type="monotone" dataKey={p} name={providerName(p)} stroke={COLORS[i % COLORS.length]} dot={false} isAnimationActive={false} />
                  ))}
                </LineChart>
              </ResponsiveContainer>
            </div>
          </>
        )}
      </Card>
      <Card title="Provider health" id="routing-circuits" className="mt-6">
        {environment === "sandbox" ? (
          <p className="text-sm text-slate-700">Test payments go to the test provider; provider health is shown in live mode.</p>
        ) : data.circuits.length === 0 ? (
          <EmptyState title="No recent provider answers">A provider that keeps failing is skipped by success-rate routing, then tried again after a pause.</EmptyState>
        ) : (
          <Table caption="Provider health by payment method">
            <thead>
              <tr>
                <Th>Payment method</Th>
                <Th>Provider</Th>
                <Th>State</Th>
                <Th className="text-right">Errors (last minute)</Th>
              </tr>
            </thead>
            <tbody>
              {data.circuits.map((c) => (
                <tr key={`${c.rail}-${c.provider}`} data-testid="routing-circuit-row">
                  <Td>{c.railName}</Td>
                  <Td>{providerName(c.provider)}</Td>
                  <Td>
                    <RoutingBadge state={c.state} />
                  </Td>
                  <Td className="text-right tabular-nums">
                    {c.errors} of {c.total}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
