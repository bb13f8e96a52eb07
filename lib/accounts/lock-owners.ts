// Team changes that could leave a merchant without an owner run in a transaction that first locks
// the merchant's owner rows: two owners demoting or removing each other at once are serialised,
// and the second sees one owner left and is refused.
import type { Tx } from "@/lib/platform/db";

export async function lockedOwnerIds(tx: Tx, merchantId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM dashboard_users WHERE merchant_id = ${merchantId} AND role = 'owner'::"DashboardRole" FOR UPDATE`;
  return rows.map((r) => r.id);
}
