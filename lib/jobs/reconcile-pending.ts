// Reconciliation: every 5 minutes, pending production transactions are checked against their
// provider (a lost notice is caught here). Applying a status is idempotent.
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { isProviderConfigured } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { applyProviderStatus } from "@/lib/providers/apply-status";

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
  return { checked: pending.length, changed };
}
