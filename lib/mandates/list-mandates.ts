// GET /mandates (and the dashboard's Subscriptions list): the owner's mandates, newest first.
import { db } from "@/lib/platform/db";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { ownedScope, type Owner } from "@/lib/platform/scope";
import { presentMandate } from "@/lib/mandates/present";
import type { Mandate } from "@/lib/generated/prisma/client";
import type { MandateStatus } from "@/lib/generated/prisma/enums";

type Query = { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: MandateStatus };

export async function listMandates(auth: Owner, q: Query) {
  const base = ownedScope(auth);
  const where = { ...base, ...(q.status ? { status: q.status } : {}) };
  const { rows, meta } = await pageModel<Mandate>(readPage(q), { model: db().mandate, name: "mandate", where, scope: base });
  return listEnvelope(rows.map(presentMandate), meta);
}
