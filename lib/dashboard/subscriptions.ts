// The dashboard's Subscriptions page (recurring PIX, Pix Automático): each mandate with the charge
// that comes next, and one mandate with every charge. The same scoped reads as GET /mandates and
// GET /mandates/{id}/charges, so the page shows exactly what the API answers.
import { db } from "@/lib/platform/db";
import { ownedScope, type Owner } from "@/lib/platform/scope";
import { listMandates } from "@/lib/mandates/list-mandates";
import { getMandate } from "@/lib/mandates/get-mandate";
import { listMandateCharges } from "@/lib/mandates/list-charges";
import { presentCharge } from "@/lib/mandates/present";
import type { MandateStatus } from "@/lib/generated/prisma/enums";

/** A charge still to be paid: not yet sent, with the payer's bank, or waiting for its retry. */
const UPCOMING = ["scheduled", "sending", "sent", "retrying"] as const;

type Query = { limit?: unknown; offset?: unknown; status?: MandateStatus };

export async function listMandatesWithNextCharge(auth: Owner, q: Query) {
  const page = await listMandates(auth, q);
  const ids = page.data.map((m) => m.id);
  // The earliest upcoming charge of each mandate on the page, in one query.
  const next = ids.length
    ? await db().mandateCharge.findMany({ where: { ...ownedScope(auth), mandateId: { in: ids }, status: { in: [...UPCOMING] } }, orderBy: [{ mandateId: "asc" }, { dueDate: "asc" }], distinct: ["mandateId"] })
    : [];
  const byMandate = new Map(next.map((c) => [c.mandateId, presentCharge(c)]));
  return { ...page, data: page.data.map((m) => ({ ...m, nextCharge: byMandate.get(m.id) ?? null })) };
}

export async function mandateWithCharges(auth: Owner, id: string) {
  const { mandate } = await getMandate(auth, id);
  const { data: charges } = await listMandateCharges(auth, id);
  return { mandate, charges };
}
