// The business gauges read at scrape time (lib/platform/metrics/registry.ts holds the registry and
// the request and job metrics): shared backlogs and lag from the database (the same answer on
// every instance of one configuration: reconciliation's figures count the payments of the
// providers configured here, as its job does), the process's database pool, and the stored ledger
// warnings. One round trip.
import client from "prom-client";
import { sql, poolStats } from "@/lib/platform/db";
import { metrics } from "@/lib/platform/metrics/registry";
import { singleton } from "@/lib/platform/singleton";
import { providerConfigs } from "@/lib/providers/registry";

type Snapshot = {
  webhook_backlog: string;
  webhook_oldest_due_s: number | null;
  scheduled_due: string;
  scheduled_oldest_due_s: number | null;
  events_unfanned: string;
  ledger_warnings: string;
  withdrawals_attention: string;
  claims_attention: string;
  topup_transfers_held: string;
  topup_transfers_held_by_reason: Record<string, number> | null;
  reconcile_backlog: string;
  reconcile_due: string;
  reconcile_oldest_due_s: number | null;
  reconcile_first_check_lag_s: number | null;
  reconcile_unservable: string;
  deposits_held: string;
  deposits_held_mismatch: string;
};

const SNAPSHOT = `
  SELECT
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now())::text AS webhook_backlog,
    (SELECT extract(epoch FROM now() - min(next_attempt_at))::float8 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()) AS webhook_oldest_due_s,
    (SELECT count(*) FROM scheduled_actions WHERE state = 'pending' AND due_at <= now())::text AS scheduled_due,
    (SELECT extract(epoch FROM now() - min(due_at))::float8 FROM scheduled_actions WHERE state = 'pending' AND due_at <= now()) AS scheduled_oldest_due_s,
    (SELECT count(*) FROM events WHERE fanned_out_at IS NULL)::text AS events_unfanned,
    (SELECT coalesce(sum(jsonb_array_length(warnings)), 0) FROM ledger_verifications)::text AS ledger_warnings,
    (SELECT count(*) FROM withdrawals WHERE status = 'processing' AND attention_at IS NOT NULL)::text AS withdrawals_attention,
    (SELECT count(*) FROM claims WHERE status = 'pending' AND attention_at IS NOT NULL)::text AS claims_attention,
    (SELECT count(*) FROM topup_transfers WHERE status = 'held')::text AS topup_transfers_held,
    (SELECT jsonb_object_agg(hold_reason, n) FROM (SELECT hold_reason, count(*) AS n FROM topup_transfers WHERE status = 'held' AND hold_reason IS NOT NULL GROUP BY hold_reason) h) AS topup_transfers_held_by_reason,
    (SELECT count(*) FROM transactions WHERE next_check_at IS NOT NULL)::text AS reconcile_backlog,
    (SELECT count(*) FROM transactions WHERE next_check_at <= now() AND (provider_ref IS NULL OR provider = ANY($1::text[])))::text AS reconcile_due,
    (SELECT extract(epoch FROM now() - min(next_check_at))::float8 FROM transactions WHERE next_check_at <= now() AND (provider_ref IS NULL OR provider = ANY($1::text[]))) AS reconcile_oldest_due_s,
    (SELECT extract(epoch FROM now() - min(next_check_at))::float8 FROM transactions WHERE next_check_at <= now() AND checked_at IS NULL AND (provider_ref IS NULL OR provider = ANY($1::text[]))) AS reconcile_first_check_lag_s,
    (SELECT count(*) FROM transactions WHERE next_check_at IS NOT NULL AND provider <> ALL($1::text[]))::text AS reconcile_unservable,
    (SELECT count(*) FROM held_deposits WHERE applied_at IS NULL AND reason = 'clabe_unknown')::text AS deposits_held,
    (SELECT count(*) FROM held_deposits WHERE applied_at IS NULL AND reason = 'pending_mismatch')::text AS deposits_held_mismatch`;

/** Registers the scrape-time gauges once per process. */
export function registerCollectors() {
  singleton("metrics-collectors", () => {
    const { registry } = metrics();
    let pending: Promise<Snapshot | null> | null = null;
    // One query per scrape, shared by the gauges below.
    const snapshot = () => (pending ??= sql<Snapshot>(SNAPSHOT, [[...providerConfigs().keys()]]).then((r) => r[0] ?? null, () => null).finally(() => setTimeout(() => (pending = null), 0)));
    const gauge = (name: string, help: string, read: (s: Snapshot) => number | null) =>
      new client.Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const s = await snapshot();
          const v = s ? read(s) : null;
          this.set(v ?? 0);
        },
      });
    gauge("lp_webhook_backlog", "Webhook deliveries due now and not yet attempted", (s) => Number(s.webhook_backlog));
    gauge("lp_webhook_lag_seconds", "Age of the oldest due webhook delivery", (s) => s.webhook_oldest_due_s);
    gauge("lp_scheduled_actions_due", "Scheduled actions due and not yet run", (s) => Number(s.scheduled_due));
    gauge("lp_job_lag_seconds", "Age of the oldest due scheduled action (how far the job runner is behind)", (s) => s.scheduled_oldest_due_s);
    gauge("lp_events_unfanned", "Events not yet fanned out to webhook deliveries", (s) => Number(s.events_unfanned));
    gauge("lp_ledger_warnings", "Ledger invariant warnings found by the last verification runs (should be 0)", (s) => Number(s.ledger_warnings));
    gauge("lp_withdrawals_need_attention", "Processing withdrawals whose custody status stayed unknown too long (an operator must look)", (s) => Number(s.withdrawals_attention));
    gauge("lp_claims_need_attention", "Pending refund claims whose provider step failed, or whose outcome stayed unknown, for an hour (an operator must look: claims:attention)", (s) => Number(s.claims_attention));
    gauge("lp_topup_transfers_held", "Transfers to top-up addresses held for review (any reason; by reason: lp_topup_transfers_held_by_reason)", (s) => Number(s.topup_transfers_held));
    new client.Gauge({
      name: "lp_topup_transfers_held_by_reason",
      help: "Transfers held for review by reason: below_minimum, after_first, expired, asset_mismatch, recycled_address, unassigned_address, invalid_address",
      labelNames: ["reason"],
      registers: [registry],
      async collect() {
        const s = await snapshot();
        // Only the reasons held now: one whose rows an operator resolved must not keep its last count.
        this.reset();
        for (const [reason, n] of Object.entries(s?.topup_transfers_held_by_reason ?? {})) this.set({ reason }, Number(n));
      },
    });
    gauge("lp_reconcile_backlog", "Pending production payments on the reconciliation schedule (each asked of its provider at its next check)", (s) => Number(s.reconcile_backlog));
    gauge("lp_reconcile_due", "Pending payments whose check is due and not yet taken (of providers configured here)", (s) => Number(s.reconcile_due));
    gauge("lp_reconcile_lag_seconds", "How far reconciliation is behind: age of the oldest due check (of providers configured here)", (s) => s.reconcile_oldest_due_s);
    gauge("lp_reconcile_first_check_lag_seconds", "Age of the oldest due first check (a payment never asked yet): how late a fresh payment's lost notice is looked for", (s) => s.reconcile_first_check_lag_s);
    gauge("lp_reconcile_unservable", "Pending payments on the reconciliation schedule whose provider is not configured on this instance: never asked here (an instance with its configuration asks them; if none has it, an operator must look)", (s) => Number(s.reconcile_unservable));
    gauge("lp_deposits_held", "Deposit notices held for a CLABE no usable account has yet (applied when it becomes active)", (s) => Number(s.deposits_held));
    gauge("lp_deposits_held_mismatch", "Credited deposit notices held for an operator: their currency or amount differs from the pending report of the same transfer (npm run deposit:held)", (s) => Number(s.deposits_held_mismatch));
    new client.Gauge({
      name: "lp_db_pool_connections",
      help: "This process's database pool, by state (total | idle | waiting)",
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const p = poolStats();
        this.set({ state: "total" }, p.total);
        this.set({ state: "idle" }, p.idle);
        this.set({ state: "waiting" }, p.waiting);
      },
    });
    return true;
  });
}

export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  registerCollectors();
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
