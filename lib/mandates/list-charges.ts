// GET /mandates/{id}/charges (and the dashboard's mandate page): every charge, by due date. A
// mandate has one per period at most, so the list is whole, not paged.
import { db } from "@/lib/platform/db";
import { findOwnedMandate } from "@/lib/mandates/find";
import { presentCharge } from "@/lib/mandates/present";
import type { Owner } from "@/lib/platform/scope";

export async function listMandateCharges(auth: Owner, id: string) {
  const m = await findOwnedMandate(auth, id);
  const charges = await db().mandateCharge.findMany({ where: { mandateId: m.id, merchantId: m.merchantId, environment: m.environment }, orderBy: { dueDate: "asc" } });
  return { data: charges.map(presentCharge) };
}
