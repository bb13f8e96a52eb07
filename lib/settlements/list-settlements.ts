// GET /settlements, /settlements/{id} and the receipt: scoped by merchant and environment.
import type { Settlement } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { presentSettlement } from "@/lib/settlements/present";
import { findOwnedSettlement } from "@/lib/settlements/settle-batch";
import { merchantScope } from "@/lib/platform/scope";
import type { Owner } from "@/lib/platform/scope";

type Query = { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: "closed" | "paid" | "failed"; from?: string; to?: string };

export async function listSettlements(scope: Owner, q: Query) {
  const base = merchantScope(scope);
  const closed = { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) };
  const where = { ...base, ...(q.status ? { status: q.status } : {}), ...(q.from || q.to ? { closedAt: closed } : {}) };
  const { rows, meta } = await pageModel<Settlement>(readPage(q), { model: db().settlement, name: "settlement", where, scope: base, shape: { omit: { receipt: true } } });
  return listEnvelope(rows.map((r) => presentSettlement({ ...r, receipt: null })), meta);
}

export async function getSettlement(scope: Owner, id: string) {
  return { settlement: presentSettlement(await findOwnedSettlement(scope, id)) };
}

export async function settlementReceipt(scope: Owner, id: string): Promise<{ pdf: Uint8Array; filename: string }> {
  const s = await findOwnedSettlement(scope, id);
  if (!s.receiptReady || !s.receipt) throw new AppError("settlement_not_found", `The receipt of ${id} is not ready yet; it follows settlement.pdf_ready.`, { param: "id" });
  return { pdf: s.receipt, filename: `settlement-${s.id}-${s.periodTo.toISOString().slice(0, 10)}.pdf` };
}
