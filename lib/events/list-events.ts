// GET /events and GET /events/{id}: scoped by merchant and environment, the last 30 days only. A
// shop-bound key sees its shop's events and the merchant's own (no shop), never another shop's.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { listEnvelope, pageRows, readPage } from "@/lib/platform/paging/pagination";
import { EVENT_RETENTION_DAYS } from "@/lib/events/schema";
import type { EventType } from "@/lib/platform/outbox/emit";
import { ownedOrMerchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";


type Query = { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; type?: EventType; createdFrom?: string; createdTo?: string; objectId?: string };

const keptSince = () => new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000);

export async function listEvents(auth: Owner, query: Query) {
  const scope = { ...ownedOrMerchantScope(auth), createdAt: { gte: keptSince() } };
  const from = query.createdFrom ? new Date(query.createdFrom) : null;
  const to = query.createdTo ? new Date(query.createdTo) : null;
  const where = {
    ...scope,
    ...(query.type ? { type: query.type } : {}),
    ...(query.objectId ? { objectId: query.objectId } : {}),
    ...(from || to ? { AND: [{ createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } }] } : {}),
  };
  const { rows, meta } = await pageRows(readPage(query), {
    find: ({ extra, orderBy, skip, take }) =>
      db().event.findMany({ where: { ...where, AND: [...((where as { AND?: object[] }).AND ?? []), ...((extra as { AND?: object[] }).AND ?? [])] }, orderBy, skip, take, select: { id: true, createdAt: true, payload: true } }),
    count: () => db().event.count({ where }),
    // The retention bound moves with the clock: the key leaves it out (it is the same 30 days).
    countKey: ["event", { ...where, createdAt: undefined }],
    cursor: (id) => db().event.findFirst({ where: { ...scope, id }, select: { id: true, createdAt: true, payload: true } }),
  });
  return listEnvelope(rows.map((r) => r.payload as Record<string, unknown>), meta);
}

export async function getEvent(auth: Owner, id: string) {
  const e = await db().event.findFirst({ where: { id, ...ownedOrMerchantScope(auth), createdAt: { gte: keptSince() } }, select: { payload: true } });
  if (!e) throw new AppError("event_not_found", `No event ${id} in the last ${EVENT_RETENTION_DAYS} days.`, { param: "id" });
  return e.payload as Record<string, unknown>;
}
