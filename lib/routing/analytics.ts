// Routing analytics for the dashboard: per provider and rail, the merchant's own attempts,
// approval rate, latency and provider cost over a period and over time, the share of payments
// the cascade rescued (approved after an earlier provider failed), and the circuit's state of
// each provider (platform-wide: a provider's health is the same for every merchant).
import { db } from "@/lib/platform/db";
import { railById } from "@/lib/rails/rails";
import { toMajor } from "@/lib/money/amount";
import { circuitStates } from "@/lib/routing/stats";
import type { Environment } from "@/lib/generated/prisma/enums";
import type { Owner } from "@/lib/platform/scope";

export const ANALYTICS_RANGES = { "24h": 24 * 3600_000, "7d": 7 * 24 * 3600_000, "30d": 30 * 24 * 3600_000 } as const;
export type AnalyticsRange = keyof typeof ANALYTICS_RANGES;

/**
 * `scope.merchant.timeZone` (IANA, UTC when absent) is where the chart's hours and days begin:
 * a payment at 23:30 in São Paulo counts on that day, not on UTC's next one.
 */
export async function routingAnalytics(scope: Owner & { merchant: { timeZone?: string } }, range: AnalyticsRange = "24h", now = new Date()) {
  const since = new Date(now.getTime() - ANALYTICS_RANGES[range]);
  const bucket: "hour" | "day" = range === "24h" ? "hour" : "day";
  const timeZone = scope.merchant.timeZone ?? "UTC";
  const [rows, series, rescued, circuits] = await Promise.all([
    db().$queryRaw<Array<{ rail: string; provider: string; attempts: number; approved: number; avg_ms: number | null; p95_ms: number | null; cost: bigint | null }>>`
      SELECT t.payment_method_id AS rail, a->>'provider' AS provider, COUNT(*)::int AS attempts,
        COUNT(*) FILTER (WHERE a->>'outcome' = 'accepted')::int AS approved,
        AVG((a->>'durationMs')::int)::float8 AS avg_ms,
        percentile_cont(0.95) WITHIN GROUP (ORDER BY (a->>'durationMs')::int)::float8 AS p95_ms,
        SUM(CASE WHEN a->>'outcome' = 'accepted' THEN t.fee_provider ELSE 0 END)::bigint AS cost
      FROM transactions t CROSS JOIN LATERAL jsonb_array_elements(t.attempts) a
      WHERE t.merchant_id = ${scope.merchant.id} AND t.environment = ${scope.environment}::"Environment" AND t.created_at > ${since}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    db().$queryRaw<Array<{ at: Date; provider: string; attempts: number; approved: number }>>`
      SELECT date_trunc(${bucket}, t.created_at, ${timeZone}) AS at, a->>'provider' AS provider, COUNT(*)::int AS attempts,
        COUNT(*) FILTER (WHERE a->>'outcome' = 'accepted')::int AS approved
      FROM transactions t CROSS JOIN LATERAL jsonb_array_elements(t.attempts) a
      WHERE t.merchant_id = ${scope.merchant.id} AND t.environment = ${scope.environment}::"Environment" AND t.created_at > ${since}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    db().$queryRaw<Array<{ payments: number; approved: number; rescued: number }>>`
      SELECT COUNT(*)::int AS payments,
        COUNT(*) FILTER (WHERE t.attempts @> '[{"outcome":"accepted"}]')::int AS approved,
        COUNT(*) FILTER (WHERE t.attempts @> '[{"outcome":"accepted"}]' AND jsonb_array_length(t.attempts) > 1)::int AS rescued
      FROM transactions t
      WHERE t.merchant_id = ${scope.merchant.id} AND t.environment = ${scope.environment}::"Environment" AND t.created_at > ${since}`,
    scope.environment === "production" ? circuitStates(now.getTime()) : Promise.resolve([]),
  ]);
  const r = rescued[0] ?? { payments: 0, approved: 0, rescued: 0 };
  return {
    range,
    bucket,
    timeZone,
    since: since.toISOString(),
    providers: rows.map((x) => ({
      rail: x.rail,
      railName: railById(x.rail)?.name ?? x.rail,
      provider: x.provider,
      attempts: x.attempts,
      approved: x.approved,
      approvalRate: x.attempts ? x.approved / x.attempts : 0,
      avgLatencyMs: x.avg_ms === null ? null : Math.round(x.avg_ms),
      p95LatencyMs: x.p95_ms === null ? null : Math.round(x.p95_ms),
      costUsd: toMajor(x.cost ?? 0n, "USD"),
    })),
    series: series.map((s) => ({ at: s.at.toISOString(), provider: s.provider, attempts: s.attempts, approved: s.approved })),
    rescued: { payments: r.payments, approved: r.approved, rescued: r.rescued, share: r.approved ? r.rescued / r.approved : 0 },
    circuits: circuits.map((c) => ({ provider: c.provider, rail: c.rail, railName: railById(c.rail)?.name ?? c.rail, state: c.state, errors: c.errors, total: c.total, lastErrorAt: c.lastErrorAt ? new Date(c.lastErrorAt).toISOString() : null })),
  };
}
