// Reconciliation: every 5 minutes, pending production transactions are checked against their
// provider (a lost notice is caught here). Applying a status is idempotent.
//
// A pending row without a provider charge id is one whose route was never written: the cascade
// ended with only unknown answers (timeouts, 5xx), or the process stopped mid-cascade (the row
// is committed before any provider is called). Its possible charges are looked up by our
// reference at the providers that may hold one; the first found becomes its route (and its status
// applies), and when none holds one the row fails, so it does not stay pending for ever.
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { isProviderConfigured, providerConfigs } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { applyProviderStatus } from "@/lib/providers/apply-status";
import { failPayment } from "@/lib/payments/transitions";

export async function reconcilePending(opts: { olderThanMs?: number; limit?: number } = {}): Promise<{ checked: number; changed: number }> {
  const before = new Date(Date.now() - (opts.olderThanMs ?? 60_000));
  const pending = await db().transaction.findMany({
    where: { status: "pending", environment: "production", provider: { not: "sandbox" }, providerRef: { not: null }, createdAt: { lte: before } },
    select: { id: true, provider: true, providerRef: true },
    orderBy: { createdAt: "asc" },
    take: opts.limit ?? 200,
  });
  let changed = 0;
  for (const t of pending) {
    if (!isProviderConfigured(t.provider)) continue;
    const status = await connectorFor(t.provider).getStatus(t.providerRef!);
    if (!status || status === "pending") continue;
    try {
      if (await applyProviderStatus(t.id, status)) changed++;
    } catch (err) {
      log.warn({ transactionId: t.id, err: (err as Error).message }, "reconciliation could not apply a status");
    }
  }
  const unrouted = await reconcileUnrouted(opts);
  return { checked: pending.length + unrouted.checked, changed: changed + unrouted.changed };
}

type AttemptRow = { provider?: string; outcome?: string };

async function reconcileUnrouted(opts: { olderThanMs?: number; limit?: number }): Promise<{ checked: number; changed: number }> {
  // Older than a whole cascade could take (every provider's timeout), so a request still
  // routing its row is left alone.
  const cascadeMs = [...providerConfigs().values()].reduce((sum, c) => sum + c.timeoutMs, 0) + 5_000;
  const before = new Date(Date.now() - Math.max(opts.olderThanMs ?? 60_000, cascadeMs));
  const rows = await db().transaction.findMany({
    where: { status: "pending", environment: "production", providerRef: null, createdAt: { lte: before } },
    select: { id: true, attempts: true },
    orderBy: { createdAt: "asc" },
    take: opts.limit ?? 200,
  });
  let changed = 0;
  for (const t of rows) {
    const attempts = Array.isArray(t.attempts) ? (t.attempts as AttemptRow[]) : [];
    const candidates = attempts.length ? [...new Set(attempts.filter((a) => a.outcome === "unavailable" && a.provider).map((a) => a.provider!))] : [...providerConfigs().keys()];
    let unknown = false;
    let found = false;
    for (const code of candidates) {
      if (!isProviderConfigured(code)) {
        unknown = true;
        continue;
      }
      const r = await connectorFor(code).chargeByReference(t.id);
      if (r.kind === "unknown") unknown = true;
      if (r.kind !== "found") continue;
      found = true;
      try {
        await db().transaction.updateMany({ where: { id: t.id, providerRef: null }, data: { provider: code, providerRef: r.providerRef } });
        if (r.status !== "pending" && (await applyProviderStatus(t.id, r.status))) changed++;
      } catch (err) {
        log.warn({ transactionId: t.id, err: (err as Error).message }, "reconciliation could not apply a status");
      }
      break;
    }
    if (!found && !unknown && (await failPayment(t.id, "failed")).changed) changed++;
  }
  return { checked: rows.length, changed };
}
