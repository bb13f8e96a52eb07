// A PSP's notice naming recurring charges (CobR txids, {cobsr: [...]}) applied to our payments:
// each attempt of the CobR is a payment of ours whose provider reference names it
// (`cobr:<txid>:<n>`, lib/providers/http-psp/pix-automatico.ts). The notice only points: each
// such payment's status is read back from the PSP and applied as the reconciliation job applies
// one (lib/outcomes/apply-provider-status.ts: a paid completes even a payment already failed or
// expired, once). The reconciliation job asks the same question of every pending one, so a lost
// notice delays an outcome and never loses it.
import { db } from "@/lib/platform/db";
import { connectorFor } from "@/lib/providers/connectors";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";

export async function syncNoticedCharges(provider: string, txids: string[]): Promise<number> {
  const refs = txids.filter((t) => /^[A-Za-z0-9]{26,35}$/.test(t)).slice(0, 100);
  if (!refs.length) return 0;
  const payments = await db().transaction.findMany({
    where: { provider, mandateId: { not: null }, status: { in: ["pending", "failed", "expired"] }, OR: refs.map((t) => ({ providerRef: { startsWith: `cobr:${t}:` } })) },
    select: { id: true, providerRef: true },
  });
  let applied = 0;
  for (const p of payments) {
    const status = await connectorFor(provider).getStatus(p.providerRef!);
    if (status && status !== "pending" && (await applyProviderStatus(p.id, status))) applied++;
  }
  return applied;
}
