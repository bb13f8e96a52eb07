// Prometheus metrics of the process (prom-client), one registry per process. Counters and
// histograms are moved where things happen (the one request wrapper, the job runner, webhook
// delivery, provider connectors); gauges of shared state (backlogs, lag, ledger warnings, the
// database pool) are read from the database when /metrics is scraped, so every instance reports
// the same backlog and nothing is counted twice by a dashboard that sums per-process counters.
import client from "prom-client";
import { singleton } from "@/lib/platform/singleton";

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "lp_" });
  const m = {
    registry,
    httpRequests: new client.Counter({ name: "lp_http_requests_total", help: "API requests answered, by route, method and status", labelNames: ["route", "method", "status"], registers: [registry] }),
    httpDuration: new client.Histogram({ name: "lp_http_request_duration_seconds", help: "API request latency, by route, method and status class", labelNames: ["route", "method", "status_class"], buckets: DURATION_BUCKETS, registers: [registry] }),
    jobRuns: new client.Counter({ name: "lp_job_runs_total", help: "Job runs by job and outcome (ok | failed)", labelNames: ["job", "outcome"], registers: [registry] }),
    jobDuration: new client.Histogram({ name: "lp_job_duration_seconds", help: "Job run duration by job", labelNames: ["job"], buckets: DURATION_BUCKETS, registers: [registry] }),
    jobLastSuccess: new client.Gauge({ name: "lp_job_last_success_timestamp_seconds", help: "When each job last ran without error (this process)", labelNames: ["job"], registers: [registry] }),
    webhookDeliveries: new client.Counter({ name: "lp_webhook_deliveries_total", help: "Webhook delivery attempts by outcome (succeeded | retrying | failed)", labelNames: ["outcome"], registers: [registry] }),
    providerCalls: new client.Counter({ name: "lp_provider_calls_total", help: "Calls to upstream providers by provider, operation and outcome", labelNames: ["provider", "operation", "outcome"], registers: [registry] }),
    providerDuration: new client.Histogram({ name: "lp_provider_call_duration_seconds", help: "Upstream provider call latency by provider and operation", labelNames: ["provider", "operation"], buckets: DURATION_BUCKETS, registers: [registry] }),
    declinesUnmapped: new client.Counter({ name: "lp_declines_unmapped_total", help: "Provider answers no decline rule maps (treated as soft), by provider and raw code", labelNames: ["provider", "code"], registers: [registry] }),
    routingDecision: new client.Summary({ name: "lp_routing_decision_seconds", help: "Time to choose a payment's providers (rules, split, success rate, circuit; in memory), beside the provider calls", percentiles: [0.5, 0.9, 0.99], maxAgeSeconds: 600, ageBuckets: 5, registers: [registry] }),
    // The same timings in fixed buckets, so a benchmark (or Prometheus, across instances) can take one run's p99 and the share over 1 ms from counter deltas.
    routingDecisionHist: new client.Histogram({ name: "lp_routing_decision_duration_seconds", help: "Time to choose a payment's providers, in buckets (the summary lp_routing_decision_seconds covers the last 10 minutes of one process)", buckets: [0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005], registers: [registry] }),
    // CPU time of the same decision (process.cpuUsage, microseconds): what routing's work costs, without the time the OS kept the process off the CPU meanwhile.
    routingDecisionCpu: new client.Histogram({ name: "lp_routing_decision_cpu_seconds", help: "CPU time the process spent choosing a payment's providers (wall time: lp_routing_decision_duration_seconds)", buckets: [0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005], registers: [registry] }),
    routingPlan: new client.Summary({ name: "lp_routing_plan_seconds", help: "The whole routing step: reading the shop's rules (cached) and the outcome window, then the decision", percentiles: [0.5, 0.9, 0.99], maxAgeSeconds: 600, ageBuckets: 5, registers: [registry] }),
    routingDecisions: new client.Counter({ name: "lp_routing_attempts_total", help: "Cascade attempts by provider, routing reason and decision (accepted | retry_next | stop | retry_same_later)", labelNames: ["provider", "reason", "decision"], registers: [registry] }),
  };
  return m;
}

export function metrics() {
  return singleton("metrics", create);
}

/** A request answered by the API wrapper. `route` is the endpoint's template (`POST /payments/{id}/refund`), never the raw path. */
export function observeRequest(route: string, method: string, status: number, seconds: number) {
  const m = metrics();
  m.httpRequests.inc({ route, method, status: String(status) });
  m.httpDuration.observe({ route, method, status_class: `${Math.floor(status / 100)}xx` }, seconds);
}

/** Times `run` as job `name`, counting its outcome. */
export async function observeJob<T>(name: string, run: () => Promise<T>): Promise<T> {
  const m = metrics();
  const end = m.jobDuration.startTimer({ job: name });
  try {
    const out = await run();
    m.jobRuns.inc({ job: name, outcome: "ok" });
    m.jobLastSuccess.set({ job: name }, Date.now() / 1000);
    return out;
  } catch (err) {
    m.jobRuns.inc({ job: name, outcome: "failed" });
    throw err;
  } finally {
    end();
  }
}
