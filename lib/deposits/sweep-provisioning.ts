// The sweep of abandoned `provisioning` deposit accounts: rows whose provider answer was lost (a
// timeout, a 5xx, an unusable answer) and that no request is retrying. The provider is asked by
// our reference (the account id) which CLABE, if any, it issued:
//   found   -> the account becomes active with that CLABE, and any deposit held for it applies;
//   never issued (the provider's own 404) -> the row is closed (deleted, as after a refusal:
//              no account exists there, so nothing could have been paid into it);
//   unknown (timeout, 5xx, a bare 404) -> asked again later, backing off.
// Rows are claimed with FOR UPDATE SKIP LOCKED and the same lease a provisioning request takes
// (provisioning_until), so a retried request and the sweep never ask at once. Also applies held
// deposits whose account is active (a crash between activation and apply).
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { isValidClabe } from "@/lib/rails/document-rules";
import { applyHeldDeposits } from "@/lib/deposits/held-deposits";

const LEASE_MS = 30_000;

/** A row is abandoned once its request had this long (longer than a provider call and its retries). */
export const ABANDONED_AFTER_MS = 60_000;

function backOff(createdAt: Date, now: Date): Date {
  const age = now.getTime() - createdAt.getTime();
  return new Date(now.getTime() + Math.min(3_600_000, Math.max(5_000, Math.floor(age / 4))));
}

export async function sweepProvisioningAccounts(opts: { now?: Date; limit?: number; abandonedAfterMs?: number } = {}): Promise<{ checked: number; activated: number; closed: number; heldApplied: number }> {
  const now = opts.now ?? new Date();
  const rows = await db().$queryRaw<Array<{ id: string; provider: string; created_at: Date }>>`
    UPDATE deposit_accounts SET provisioning_until = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id IN (
      SELECT id FROM deposit_accounts
      WHERE status = 'provisioning' AND provider <> 'sandbox'
        AND created_at < ${new Date(now.getTime() - (opts.abandonedAfterMs ?? ABANDONED_AFTER_MS))}
        AND (provisioning_until IS NULL OR provisioning_until < ${now})
        AND (next_check_at IS NULL OR next_check_at <= ${now})
      ORDER BY next_check_at NULLS FIRST LIMIT ${opts.limit ?? 50}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, provider, created_at`;
  let activated = 0;
  let closed = 0;
  let heldApplied = 0;
  for (const r of rows) {
    const later = { provisioningUntil: null, nextCheckAt: backOff(new Date(r.created_at), now) };
    try {
      if (!isProviderConfigured(r.provider)) {
        await db().depositAccount.updateMany({ where: { id: r.id, status: "provisioning" }, data: later });
        continue;
      }
      const found = await connectorFor(r.provider).clabeByReference(r.id);
      if (found.kind === "not_found") {
        const gone = await db().depositAccount.deleteMany({ where: { id: r.id, status: "provisioning" } });
        if (gone.count) closed++;
        log.info({ account: r.id, provider: r.provider }, "abandoned provisioning account closed: the provider never issued it");
        continue;
      }
      if (found.kind === "unknown" || typeof found.clabe !== "string" || !isValidClabe(found.clabe)) {
        await db().depositAccount.updateMany({ where: { id: r.id, status: "provisioning" }, data: later });
        continue;
      }
      const done = await db().depositAccount.updateMany({
        where: { id: r.id, status: "provisioning" },
        data: { status: "active", clabe: found.clabe, bank: found.bank, providerRef: found.providerRef, provisioningUntil: null, nextCheckAt: null },
      });
      if (done.count) {
        activated++;
        log.info({ account: r.id, provider: r.provider }, "abandoned provisioning account activated with the CLABE its provider holds");
        heldApplied += await applyHeldDeposits(r.id);
      }
    } catch (err) {
      // A CLABE another account already has (unique index), a database error: asked again later.
      log.warn({ account: r.id, err: err instanceof Error ? err.message : String(err) }, "provisioning sweep could not settle an account; asked again later");
      await db().depositAccount.updateMany({ where: { id: r.id, status: "provisioning" }, data: later }).catch(() => undefined);
    }
  }
  heldApplied += await applyHeldDeposits();
  return { checked: rows.length, activated, closed, heldApplied };
}
